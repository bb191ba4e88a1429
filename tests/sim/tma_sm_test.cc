// The SM drives the TMA engine and the mbarriers (sim/sm_tma.cc): exact cycles of a
// UTMALDG completing on an mbarrier that a consumer warp waits on, with the values a
// trace records (tracer-version-5 negative immediates) and without them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ground/error.h"

#include "tma_rig.h"

namespace sassim::sim::testing {
namespace {

// Barrier at shared offset 0x400 (its generic address in the trace's shared window).
constexpr const char* kBar = "0x7f0000000400";

// Producer: init (1 arrival), arrive.expect_tx(4096), UTMALDG of 2 x 2048 bytes.
std::vector<std::string> producer(bool recorded) {
  return {fmt::format("0000 00000001 0 SYNCS.EXCH.64 0 8 0 {} {}", kBar, recorded ? -2 : 0),
          fmt::format("0010 00000001 0 SYNCS.ARRIVE.TRANS64 1 R3 8 0 {} {}", kBar,
                      recorded ? -4097 : 0),
          fmt::format("0020 00000001 0 UTMALDG.2D 0 0 {} 0 4096 0 4 0x10000 2 2048 0", kBar),
          "0030 ffffffff 0 EXIT 0 0 0"};
}

// Consumer: TRYWAIT (phase parity 0 when recorded), then a NOP.
std::vector<std::string> consumer(bool recorded, int tries = 1) {
  std::vector<std::string> lines;
  for (int i = 0; i < tries; ++i) {
    lines.push_back(
        fmt::format("0100 ffffffff 0 SYNCS.PHASECHK.TRANS64.TRYWAIT 2 R3 R0 8 1 {} 0 {}", kBar,
                    recorded ? -1 : 0));
  }
  lines.push_back("0110 ffffffff 0 NOP 0 0 0");
  lines.push_back("0120 ffffffff 0 EXIT 0 0 0");
  return lines;
}

class SmTma : public TmaRig {
 protected:
  // The cycle the copy issued at `issue` completes: address generation, TMA setup,
  // the engine's issue rate over `lines` requests (one per 128-byte line), then the L2
  // round trip.
  std::uint64_t copy_done(std::uint64_t issue, std::uint64_t lines, std::uint64_t l2) const {
    const auto& tma = config_.tma();
    return issue + config_.sm().units().memory().latency_cycles() + tma.setup_latency_cycles() +
           (lines - 1) * 128 / tma.bytes_per_cycle() + l2;
  }
};

TEST_F(SmTma, ConsumerResumesWhenTheCopyCompletesTheBarrierPhase) {
  run({warp_text(0, producer(true)), warp_text(1, consumer(true))}, 200);
  const std::uint64_t issue = recorder_.cycle_of(0x20, 0);
  ASSERT_EQ(port_->submitted_at.size(), 1u);
  EXPECT_EQ(port_->submitted_at[0], issue + 4);
  ASSERT_EQ(port_->sent.size(), 32u);  // 4096 bytes in 128-byte lines
  EXPECT_EQ(port_->sent.front().first, issue + 4 + 66);
  // 2 x 2048 bytes: 32 lines, one every 128 / 128 cycles.
  const std::uint64_t done = copy_done(issue, 32, 200);
  EXPECT_EQ(done, issue + 4 + 66 + 31 + 200);
  EXPECT_EQ(recorder_.cycle_of(0x110, 1), done);
  // The consumer waited in `barrier` from the cycle after its TRYWAIT.
  EXPECT_EQ(cycles_in(WarpCycleState::kBarrier), done - recorder_.cycle_of(0x100, 1) - 1);
}

TEST_F(SmTma, SetupAndRateComeFromTheConfig) {
  config_.mutable_tma()->set_setup_latency_cycles(10);
  config_.mutable_tma()->set_bytes_per_cycle(64);
  run({warp_text(0, producer(true)), warp_text(1, consumer(true))}, 50);
  const std::uint64_t issue = recorder_.cycle_of(0x20, 0);
  EXPECT_EQ(recorder_.cycle_of(0x110, 1), copy_done(issue, 32, 50));
  EXPECT_EQ(recorder_.cycle_of(0x110, 1), issue + 4 + 10 + 62 + 50);
}

TEST_F(SmTma, RecordedParityMakesAConsumerThatComesFirstWait) {
  // The consumer is the oldest warp: its TRYWAIT issues before the producer arrives.
  run({warp_text(0, consumer(true)), warp_text(1, producer(true))}, 200);
  ASSERT_LT(recorder_.cycle_of(0x100, 0), recorder_.cycle_of(0x10, 1));
  EXPECT_EQ(recorder_.cycle_of(0x110, 0), copy_done(recorder_.cycle_of(0x20, 1), 32, 200));
}

TEST_F(SmTma, WithoutRecordedValuesAConsumerThatComesFirstDoesNotWait) {
  run({warp_text(0, consumer(false)), warp_text(1, producer(false))}, 200);
  EXPECT_EQ(recorder_.cycle_of(0x110, 0), recorder_.cycle_of(0x100, 0) + 1);
}

TEST_F(SmTma, WithoutRecordedValuesTheExpectTxArriveWaitsForTheCopy) {
  run({warp_text(0, producer(false)), warp_text(1, consumer(false))}, 200);
  EXPECT_EQ(recorder_.cycle_of(0x110, 1), copy_done(recorder_.cycle_of(0x20, 0), 32, 200));
}

TEST_F(SmTma, RetriedTryWaitsPassOnceThePhaseCompleted) {
  run({warp_text(0, producer(true)), warp_text(1, consumer(true, 3))}, 200);
  const std::uint64_t done = copy_done(recorder_.cycle_of(0x20, 0), 32, 200);
  // The first try waits; the two retries (the trace's loop) issue one per cycle.
  std::vector<std::uint64_t> tries;
  for (const IssueRecord& r : recorder_.records) {
    if (r.warp == 1 && r.pc == 0x100) tries.push_back(r.cycle);
  }
  ASSERT_EQ(tries.size(), 3u);
  EXPECT_EQ(tries[1], done);
  EXPECT_EQ(tries[2], done + 1);
  EXPECT_EQ(recorder_.cycle_of(0x110, 1), done + 2);
}

TEST_F(SmTma, AddressOnlyCopyIsOneSectorPerAddressOnTheArrivedBarrier) {
  // An NVBit-style line: per-thread addresses (one thread), no TMA fields, no values.
  std::vector<std::string> p = producer(false);
  p[2] = "0020 00000001 0 UTMALDG.2D 0 16 0 0x10000 0";
  run({warp_text(0, p), warp_text(1, consumer(false))}, 200);
  ASSERT_EQ(port_->sent.size(), 1u);
  EXPECT_EQ(port_->sent[0].second.line, 0x10000u / 128);
  EXPECT_EQ(recorder_.cycle_of(0x110, 1), copy_done(recorder_.cycle_of(0x20, 0), 1, 200));
}

TEST_F(SmTma, StoreHoldsTheIssuingWarpUntilItsLastRequestLeaves) {
  run({warp_text(0, {"0000 00000001 0 UTMASTG.2D 0 0 0x0 0 256 0 3 1 0x20000 0",
                     "0010 ffffffff 0 EXIT 0 0 0"})},
      200);
  ASSERT_EQ(port_->sent.size(), 2u);
  EXPECT_EQ(port_->sent[0].second.kind, memsys::ReqKind::kWrite);
  const std::uint64_t issue = recorder_.cycle_of(0x0, 0);
  // Last of 2 line requests 128 / 128 = 1 cycle after the first; the copy has read its
  // source and the warp (its EXIT long issued) finishes in that cycle. The port is
  // busy until the L2 acknowledged the last write, 200 cycles later.
  EXPECT_EQ(port_->sent.back().first, issue + 4 + 66 + 1);
  EXPECT_EQ(cycles_in(WarpCycleState::kDrain), issue + 4 + 66 + 1 - recorder_.cycle_of(0x10) - 1);
  EXPECT_EQ(end_cycle_, issue + 4 + 66 + 1 + 200);
}

TEST_F(SmTma, TwoStagePipelineAlternatesPhaseParity) {
  constexpr const char* kBar1 = "0x7f0000000408";
  auto syncs = [](const char* pc, const char* op, const char* bar, int imm) {
    return fmt::format("{} 00000001 0 SYNCS.{} 1 R3 8 0 {} {}", pc, op, bar, imm);
  };
  auto load = [](const char* pc, const char* bar, const char* address) {
    return fmt::format("{} 00000001 0 UTMALDG.2D 0 0 {} 0 4096 0 3 1 {} 0", pc, bar, address);
  };
  auto wait = [](const char* pc, const char* bar, int parity) {
    return fmt::format("{} ffffffff 0 SYNCS.PHASECHK.TRANS64.TRYWAIT 2 R3 R0 8 1 {} 0 {}", pc, bar,
                       -1 - parity);
  };
  // Producer: fill stages 0 and 1, wait until stage 0 is full (phase 0), refill it.
  const std::vector<std::string> producer = {syncs("0000", "EXCH.64", kBar, -2),
                                             syncs("0010", "EXCH.64", kBar1, -2),
                                             syncs("0020", "ARRIVE.TRANS64", kBar, -4097),
                                             load("0030", kBar, "0x10000"),
                                             syncs("0040", "ARRIVE.TRANS64", kBar1, -4097),
                                             load("0050", kBar1, "0x20000"),
                                             wait("0060", kBar, 0),
                                             syncs("0020", "ARRIVE.TRANS64", kBar, -4097),
                                             load("0030", kBar, "0x30000"),
                                             "0070 ffffffff 0 EXIT 0 0 0"};
  // Consumer: stage 0 (parity 0), stage 1 (parity 0), stage 0 again (parity 1).
  const std::vector<std::string> consumer = {
      wait("0100", kBar, 0),       "0110 ffffffff 0 NOP 0 0 0", wait("0120", kBar1, 0),
      "0130 ffffffff 0 NOP 0 0 0", wait("0100", kBar, 1),       "0140 ffffffff 0 NOP 0 0 0",
      "0150 ffffffff 0 EXIT 0 0 0"};
  run({warp_text(0, producer), warp_text(1, consumer)}, 200);
  ASSERT_EQ(port_->sent.size(), 3u * 32);
  // Copy k completes when its last line's response arrives, 200 cycles after it left.
  auto done = [&](std::size_t k) { return port_->sent[32 * (k + 1) - 1].first + 200; };
  EXPECT_EQ(recorder_.cycle_of(0x110, 1), done(0));
  EXPECT_EQ(recorder_.cycle_of(0x130, 1), done(1));
  EXPECT_EQ(recorder_.cycle_of(0x140, 1), done(2));
  // The refill's UTMALDG (the second issue of PC 0x30) waits for stage 0's phase; its
  // first request leaves after address generation and setup.
  std::vector<std::uint64_t> loads;
  for (const IssueRecord& r : recorder_.records) {
    if (r.warp == 0 && r.pc == 0x30) loads.push_back(r.cycle);
  }
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_GT(loads[1], done(0));
  EXPECT_EQ(port_->sent[64].first, loads[1] + 4 + 66);
}

TEST_F(SmTma, BadRecordedParityIsAnErrorNamingTheLine) {
  std::vector<std::string> c = consumer(true);
  c[0] = fmt::format("0100 ffffffff 0 SYNCS.PHASECHK.TRANS64.TRYWAIT 2 R3 R0 8 1 {} 0 -3", kBar);
  try {
    run({warp_text(0, producer(true)), warp_text(1, c)});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr("tma.traceg"));
    EXPECT_THAT(std::string(e.what()),
                ::testing::HasSubstr("records phase parity 2 (immediate -3): expected 0 or 1"));
  }
}

}  // namespace
}  // namespace sassim::sim::testing
