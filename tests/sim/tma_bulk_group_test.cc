// Bulk async-groups of TMA stores and reductions (sim/bulk_groups.h): UTMACMDFLUSH
// commits, DEPBAR.LE SB0, N waits until the sources of all but the newest N groups
// were read (cp.async.bulk.wait_group.read), CCTL.IVALL after it until the L2
// acknowledged the writes (the plain wait_group). Exact cycles with the rig's mock L2
// (reads answered after L = 200 cycles, writes acknowledged after A = 150).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <tuple>

#include "ground/error.h"
#include "traces/sass/listing.h"

#include "tma_rig.h"

namespace sassim::sim::testing {
namespace {

// A store (or reduction) of `bytes` bytes from shared memory to one global address.
std::string bulk_line(const char* pc, const char* opcode, std::uint32_t bytes,
                      const char* address) {
  return fmt::format("{} 00000001 0 {} 0 0 0x0 0 {} 0 3 1 {} 0", pc, opcode, bytes, address);
}
std::string store(const char* pc, std::uint32_t bytes, const char* address) {
  return bulk_line(pc, "UTMASTG.2D", bytes, address);
}
std::string commit(const char* pc) {
  return fmt::format("{} 00000001 0 UTMACMDFLUSH 0 0 0", pc);
}
// DEPBAR.LE SB0, n: tracer version 5 records n as the line's immediate.
std::string wait_group(const char* pc, int n) {
  return fmt::format("{} 00000001 0 DEPBAR.LE 0 0 {}", pc, n);
}
std::string line(const char* pc, const char* opcode) {
  return fmt::format("{} 00000001 0 {} 0 0 0", pc, opcode);
}

class BulkGroups : public TmaRig {
 protected:
  static constexpr std::uint64_t kL2 = 200;
  static constexpr std::uint64_t kAck = 150;

  void SetUp() override {
    TmaRig::SetUp();
    ack_cycles_ = kAck;
  }
  // The cycle a store of `lines` 128-byte lines issued at `issue` has read its source:
  // its last request (one per line) leaves after address generation, TMA setup and the
  // engine's rate.
  std::uint64_t source_read(std::uint64_t issue, std::uint64_t lines) const {
    const auto& tma = config_.tma();
    return issue + config_.sm().units().memory().latency_cycles() + tma.setup_latency_cycles() +
           (lines - 1) * 128 / tma.bytes_per_cycle();
  }
};

TEST_F(BulkGroups, WaitGroupReadZeroResumesWhenTheSourceHasBeenRead) {
  run({warp_text(0, {store("0000", 256, "0x20000"), commit("0010"), wait_group("0020", 0),
                     line("0030", "NOP"), line("0040", "EXIT")})},
      kL2);
  const std::uint64_t issue = recorder_.cycle_of(0x0);
  ASSERT_EQ(port_->sent.size(), 2u);
  EXPECT_EQ(port_->sent[0].second.kind, memsys::ReqKind::kWrite);
  EXPECT_TRUE(port_->sent[0].second.acknowledge);
  // 2 lines: the last leaves 128 / 128 = 1 cycle after the first (h100 values).
  EXPECT_EQ(source_read(issue, 2), issue + 4 + 66 + 1);
  EXPECT_EQ(recorder_.cycle_of(0x30), source_read(issue, 2));
  // From the cycle after the DEPBAR to the resume: long_scoreboard.
  EXPECT_EQ(cycles_in(WarpCycleState::kLongScoreboard),
            source_read(issue, 2) - recorder_.cycle_of(0x20) - 1);
}

TEST_F(BulkGroups, PlainWaitGroupResumesLaterByTheAcknowledgementLatency) {
  // wait_group 0 without .read: DEPBAR.LE then CCTL.IVALL, which waits for the acks.
  run({warp_text(0, {store("0000", 256, "0x20000"), commit("0010"), wait_group("0020", 0),
                     line("0030", "CCTL.IVALL"), line("0040", "NOP"), line("0050", "EXIT")})},
      kL2);
  const std::uint64_t read = source_read(recorder_.cycle_of(0x0), 2);
  EXPECT_EQ(recorder_.cycle_of(0x30), read);
  // The last write left at `read`; its acknowledgement comes back kAck later.
  EXPECT_EQ(recorder_.cycle_of(0x40), read + kAck);
  EXPECT_EQ(cycles_in(WarpCycleState::kMembar), kAck - 1);
}

TEST_F(BulkGroups, WaitGroupOneWithTwoGroupsResumesWhenTheFirstHasBeenRead) {
  run({warp_text(0, {store("0000", 256, "0x20000"), commit("0010"), store("0020", 4096, "0x30000"),
                     commit("0030"), wait_group("0040", 1), line("0050", "NOP"),
                     wait_group("0060", 0), line("0070", "NOP"), line("0080", "EXIT")})},
      kL2);
  const std::uint64_t first = recorder_.cycle_of(0x0);
  const std::uint64_t second = recorder_.cycle_of(0x20);
  ASSERT_EQ(port_->sent.size(), 2u + 32u);
  EXPECT_EQ(recorder_.cycle_of(0x50), source_read(first, 2));
  // The second copy's requests start after its own setup (the first copy's two
  // request cycles are long over): 32 lines, the last 31 cycles after the first.
  ASSERT_GE(second, first + 2);
  EXPECT_EQ(port_->sent[2].first, second + 4 + 66);
  EXPECT_EQ(recorder_.cycle_of(0x70), source_read(second, 32));
}

TEST_F(BulkGroups, PlainWaitGroupOneResumesWhenTheOlderGroupsWritesAreAcknowledged) {
  // cp.async.bulk.wait_group 1 behind two committed groups: DEPBAR.LE SB0, 0x1 then
  // CCTL.IVALL, which waits for the first group's acknowledgements, not the second's.
  run({warp_text(0, {store("0000", 256, "0x20000"), commit("0010"), store("0020", 4096, "0x30000"),
                     commit("0030"), wait_group("0040", 1), line("0050", "CCTL.IVALL"),
                     line("0060", "NOP"), line("0070", "EXIT")})},
      kL2);
  const std::uint64_t first = source_read(recorder_.cycle_of(0x0), 2);
  const std::uint64_t second = source_read(recorder_.cycle_of(0x20), 32);
  EXPECT_EQ(recorder_.cycle_of(0x50), first);
  // The first group's last write left at `first`, its acknowledgement is back kAck
  // later; the second's comes back at second + kAck (> first + kAck: 32 lines).
  EXPECT_EQ(recorder_.cycle_of(0x60), first + kAck);
  EXPECT_LT(first + kAck, second + kAck);
  EXPECT_EQ(cycles_in(WarpCycleState::kMembar), kAck - 1);
}

TEST_F(BulkGroups, PlainWaitGroupOneDoesNotWaitForOrdinaryLoads) {
  // A global load in flight (the mock answers it kLongL2 cycles after it left address
  // generation) is not waited for by the CCTL.IVALL of wait_group 1: only bulk groups.
  constexpr std::uint64_t kLongL2 = 400;
  run({warp_text(
          0, {store("0000", 256, "0x20000"), commit("0010"), store("0020", 256, "0x30000"),
              commit("0030"), "0040 00000001 1 R8 LDG.E 1 R4 4 0 0x40000 0", wait_group("0050", 1),
              line("0060", "CCTL.IVALL"), line("0070", "NOP"), line("0080", "EXIT")})},
      kLongL2);
  const std::uint64_t first = source_read(recorder_.cycle_of(0x0), 2);
  const std::uint64_t load_done =
      recorder_.cycle_of(0x40) + config_.sm().units().memory().latency_cycles() + kLongL2;
  EXPECT_EQ(recorder_.cycle_of(0x70), first + kAck);
  EXPECT_LT(first + kAck, load_done);
}

TEST_F(BulkGroups, PlainWaitGroupZeroStillWaitsForOrdinaryLoads) {
  // N = 0: CCTL.IVALL waits as a memory barrier for every access, the load included.
  constexpr std::uint64_t kLongL2 = 400;
  run({warp_text(0, {store("0000", 256, "0x20000"), commit("0010"),
                     "0020 00000001 1 R8 LDG.E 1 R4 4 0 0x40000 0", wait_group("0030", 0),
                     line("0040", "CCTL.IVALL"), line("0050", "NOP"), line("0060", "EXIT")})},
      kLongL2);
  const std::uint64_t load_done =
      recorder_.cycle_of(0x20) + config_.sm().units().memory().latency_cycles() + kLongL2;
  EXPECT_EQ(recorder_.cycle_of(0x50), load_done);
}

TEST_F(BulkGroups, WaitGroupZeroWaitsForEveryCommittedGroupButNotTheOpenOne) {
  // The second store is not committed: wait_group 0 waits for the first only.
  run({warp_text(0, {store("0000", 256, "0x20000"), commit("0010"), store("0020", 4096, "0x30000"),
                     wait_group("0030", 0), line("0040", "NOP"), line("0050", "EXIT")})},
      kL2);
  EXPECT_EQ(recorder_.cycle_of(0x40), source_read(recorder_.cycle_of(0x0), 2));
}

TEST_F(BulkGroups, WaitGroupWithoutGroupsDoesNotWait) {
  run({warp_text(
          0, {commit("0000"), wait_group("0010", 0), line("0020", "NOP"), line("0030", "EXIT")})},
      kL2);
  EXPECT_EQ(recorder_.cycle_of(0x20), recorder_.cycle_of(0x10) + 1);
  EXPECT_EQ(cycles_in(WarpCycleState::kLongScoreboard), 0u);
}

TEST_F(BulkGroups, ReductionsSendReductionRequestsWithTheSameGroupTiming) {
  run({warp_text(0, {bulk_line("0000", "UBLKRED.G.S.ADD.F32.RN", 256, "0x20000"), commit("0010"),
                     wait_group("0020", 0), line("0030", "NOP"), line("0040", "CCTL.IVALL"),
                     line("0050", "NOP"), line("0060", "EXIT")})},
      kL2);
  ASSERT_EQ(port_->sent.size(), 2u);
  for (const auto& [cycle, request] : port_->sent) {
    EXPECT_EQ(request.kind, memsys::ReqKind::kReduction);
    EXPECT_TRUE(request.acknowledge);
  }
  const std::uint64_t read = source_read(recorder_.cycle_of(0x0), 2);
  EXPECT_EQ(recorder_.cycle_of(0x30), read);
  EXPECT_EQ(recorder_.cycle_of(0x50), read + kAck);
}

TEST_F(BulkGroups, ExitWaitsForTheSourceReadNotForTheAcknowledgements) {
  run({warp_text(0, {store("0000", 256, "0x20000"), line("0010", "EXIT")})}, kL2);
  const std::uint64_t read = source_read(recorder_.cycle_of(0x0), 2);
  // The warp drains from the cycle after its EXIT until the source has been read; the
  // port is busy until the last acknowledgement.
  EXPECT_EQ(cycles_in(WarpCycleState::kDrain), read - recorder_.cycle_of(0x10) - 1);
  EXPECT_EQ(end_cycle_, read + kAck);
}

// A listing of kernel "k": (PC, instruction, control word: stall | yield << 4 | write
// barrier << 5 | read barrier << 8 | wait mask << 11; nvdisasm keeps it in the high
// encoding word >> 41).
traces::sass::Listing listing(const std::vector<std::tuple<int, std::string, unsigned>>& insts) {
  std::string text = "        .global         k\nk:\n";
  for (const auto& [pc, inst, control] : insts) {
    text += fmt::format("        /*{:04x}*/  {} ;  /* 0x0000000000007918 */\n", pc, inst);
    text += fmt::format("                          /* {:#018x} */\n", std::uint64_t{control} << 41);
  }
  return traces::sass::parse_listing(text, "k.sass");
}

TEST_F(BulkGroups, ControlBitsUtmacmdflushHoldsItsReadBarrierUntilTheSourceHasBeenRead) {
  // As nvdisasm shows the bulk-group store: UTMASTG (read barrier SB1), UTMACMDFLUSH
  // (read barrier SB0), DEPBAR.LE SB0, 0x0. Stall 1 everywhere, no write barriers.
  constexpr unsigned kNone = 7 << 5 | 7 << 8;
  listings_.push_back(listing({{0x00, "UTMASTG.2D [UR4], [UR6]", 1 | 7 << 5 | 1 << 8},
                               {0x10, "UTMACMDFLUSH", 1 | 7 << 5 | 0 << 8},
                               {0x20, "DEPBAR.LE SB0, 0x0", 1 | kNone},
                               {0x30, "NOP", 1 | kNone},
                               {0x40, "EXIT", 1 | kNone}}));
  run({warp_text(0, {store("0000", 256, "0x20000"), commit("0010"), wait_group("0020", 0),
                     line("0030", "NOP"), line("0040", "EXIT")})},
      kL2);
  const std::uint64_t read = source_read(recorder_.cycle_of(0x0), 2);
  // DEPBAR waits for SB0 to drop to 0 and issues then; the NOP its stall later.
  EXPECT_EQ(recorder_.cycle_of(0x20), read);
  EXPECT_EQ(recorder_.cycle_of(0x30), read + 1);
  // Held from the cycle after UTMACMDFLUSH (its stall) until the read.
  EXPECT_EQ(cycles_in(WarpCycleState::kLongScoreboard), read - recorder_.cycle_of(0x10) - 1);
}

TEST_F(BulkGroups, ControlBitsPlainWaitGroupOneTakesNFromTheListing) {
  // Two committed groups, then DEPBAR.LE SB0, 0x1 and CCTL.IVALL as nvdisasm shows the
  // plain wait_group 1. The trace records no immediate (a tracer before version 5): N
  // comes from the listing's operand. Stall 1 everywhere, no write barriers.
  constexpr unsigned kNone = 7 << 5 | 7 << 8;
  listings_.push_back(listing({{0x00, "UTMASTG.2D [UR4], [UR6]", 1 | 7 << 5 | 1 << 8},
                               {0x10, "UTMACMDFLUSH", 1 | 7 << 5 | 0 << 8},
                               {0x20, "UTMASTG.2D [UR8], [UR10]", 1 | 7 << 5 | 1 << 8},
                               {0x30, "UTMACMDFLUSH", 1 | 7 << 5 | 0 << 8},
                               {0x40, "DEPBAR.LE SB0, 0x1", 1 | kNone},
                               {0x50, "CCTL.IVALL", 1 | kNone},
                               {0x60, "NOP", 1 | kNone},
                               {0x70, "EXIT", 1 | kNone}}));
  run({warp_text(0, {store("0000", 256, "0x20000"), commit("0010"), store("0020", 4096, "0x30000"),
                     commit("0030"), wait_group("0040", 0), line("0050", "CCTL.IVALL"),
                     line("0060", "NOP"), line("0070", "EXIT")})},
      kL2);
  const std::uint64_t first = source_read(recorder_.cycle_of(0x0), 2);
  // DEPBAR issues when the first group's source has been read (SB0 down to 1), the
  // CCTL.IVALL its stall later; the NOP when the first group's writes are acknowledged.
  EXPECT_EQ(recorder_.cycle_of(0x40), first);
  EXPECT_EQ(recorder_.cycle_of(0x50), first + 1);
  EXPECT_EQ(recorder_.cycle_of(0x60), first + kAck);
}

TEST_F(BulkGroups, TruncatedTransferListIsAnErrorNamingTheLine) {
  try {
    run({warp_text(0, {"0000 00000001 0 UBLKRED.G.S.ADD 0 0 0x0 0 256 0 3 2 0x20000 0",
                       line("0010", "EXIT")})},
        kL2);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    // Two transfers announced, one listed: the trailing immediate is taken as the
    // second address and the immediate is missing.
    EXPECT_THAT(std::string(e.what()),
                ::testing::HasSubstr("tma.traceg:23: the line ends early: expected a decimal "
                                     "immediate"));
  }
}

}  // namespace
}  // namespace sassim::sim::testing
