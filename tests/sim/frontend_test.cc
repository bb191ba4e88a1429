// Exact-cycle tests of instruction fetch (L0/L1 instruction caches, instruction
// buffer, decode) and of control flow (taken branches, reconvergence costs).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "configs/derived.h"
#include "ground/error.h"
#include "sim/control_flow.h"
#include "sm_harness.h"

namespace sassim::sim {
namespace {

using testing::warp_text;

class FrontendTest : public testing::SmHarness {
 protected:
  // One-entry buffers, an L0 of one line and a 4-line L1i.
  void small_caches() {
    frontend().set_ibuffer_entries(1);
    frontend().set_decode_latency_cycles(kDecode);
    frontend().set_l0i_size_bytes(128);
    frontend().set_l0i_line_bytes(128);
    frontend().set_l0i_associativity(1);
    frontend().set_l0i_hit_latency_cycles(kL0Hit);
    frontend().set_l1i_size_bytes(512);
    frontend().set_l1i_line_bytes(128);
    frontend().set_l1i_associativity(4);
    frontend().set_l1i_hit_latency_cycles(kL1Hit);
    frontend().set_l1i_miss_latency_cycles(kMiss);
  }
  static constexpr std::uint64_t kDecode = 2, kL0Hit = 1, kL1Hit = 5, kMiss = 50;
};

TEST_F(FrontendTest, AnL0HitAndAMissCostExactlyTheirConfiguredLatencies) {
  small_caches();
  run({warp_text(0, {"0000 ffffffff 0 NOP 0 0", "0010 ffffffff 0 NOP 0 0"})});
  // Fetched at 1 (the CTA landed at 0): both caches miss.
  const std::uint64_t first = 1 + kMiss + kDecode;
  EXPECT_EQ(recorder_.cycle_of(0x00), first);
  // The buffer entry frees at issue; the next fetch, a cycle later, hits the L0.
  EXPECT_EQ(recorder_.cycle_of(0x10), first + 1 + kL0Hit + kDecode);
  const FrontendCounters& f = sm_->frontend_counters();
  EXPECT_EQ(f.l0i_misses, 1U);
  EXPECT_EQ(f.l0i_hits, 1U);
  EXPECT_EQ(f.l1i_misses, 1U);
  EXPECT_EQ(f.l1i_hits, 0U);
}

TEST_F(FrontendTest, AnL0MissThatHitsTheL1iCostsTheL1iHitLatency) {
  small_caches();
  // The one-line L0 loses line 0 to line 1, which the L1i keeps.
  run({warp_text(
      0, {"0000 ffffffff 0 NOP 0 0", "0080 ffffffff 0 NOP 0 0", "0000 ffffffff 0 NOP 0 0"})});
  const std::uint64_t first = 1 + kMiss + kDecode;
  const std::uint64_t second = first + 1 + kMiss + kDecode;
  EXPECT_EQ(recorder_.records.at(1).cycle, second);
  EXPECT_EQ(recorder_.records.at(2).cycle, second + 1 + kL1Hit + kDecode);
  const FrontendCounters& f = sm_->frontend_counters();
  EXPECT_EQ(f.l0i_misses, 3U);
  EXPECT_EQ(f.l1i_misses, 2U);
  EXPECT_EQ(f.l1i_hits, 1U);
}

// `lines` lines of straight-line code: 8 NOPs of 16 bytes per 128-byte line.
std::string straight_line(std::uint32_t lines) {
  std::vector<std::string> insts;
  for (std::uint32_t i = 0; i < 8 * lines; ++i) {
    insts.push_back(fmt::format("{:04x} ffffffff 0 NOP 0 0", 0x10 * i));
  }
  return warp_text(0, insts);
}

class StreamBufferTest : public FrontendTest {
 protected:
  // small_caches() with an L0 of 8 lines and an L1i of 16, and a stream buffer.
  void with_stream_buffer(std::uint32_t entries) {
    small_caches();
    frontend().set_l0i_size_bytes(8 * 128);
    frontend().set_l0i_associativity(8);
    frontend().set_l1i_size_bytes(16 * 128);
    frontend().set_stream_buffer_entries(entries);
  }
  // One-entry buffers: each fetch follows the previous issue by a cycle, and an
  // instruction that hits issues kL0Hit + kDecode after its fetch.
  static constexpr std::uint64_t kPeriod = 1 + kL0Hit + kDecode;
  // Issue of instruction 0: fetched at 1, missing every cache.
  static constexpr std::uint64_t kFirst = 1 + kMiss + kDecode;
};

TEST_F(StreamBufferTest, StraightLineCodeAfterTheFirstMissComesFromTheStreamBuffer) {
  with_stream_buffer(2);
  run({straight_line(3)});
  // The miss of line 0 at cycle 1 requests lines 1 and 2 at cycles 2 and 3; they
  // arrive (kMiss later) before the warp's fetches of them (a cycle after the issue of
  // the line's last instruction before) would have the data ...
  static_assert(2 + kMiss <= kFirst + 7 * kPeriod + 1 + kL0Hit);
  static_assert(3 + kMiss <= kFirst + 15 * kPeriod + 1 + kL0Hit);
  // ... so only the first instruction waits for the L2: every other one issues a
  // period after the one before, as on an L0 hit.
  EXPECT_EQ(recorder_.cycle_of(0x00), kFirst);
  for (std::uint64_t i = 1; i < 24; ++i) {
    EXPECT_EQ(recorder_.records.at(i).cycle, kFirst + i * kPeriod) << "instruction " << i;
  }
  const FrontendCounters& f = sm_->frontend_counters();
  EXPECT_EQ(f.l0i_misses, 3U);  // one per line
  EXPECT_EQ(f.stream_buffer_hits, 2U);
  // Lines 1 and 2 after the miss, then one more line (3, 4) per line taken.
  EXPECT_EQ(f.prefetches, 4U);
  EXPECT_EQ(f.l1i_misses, 1U + 4U);
}

TEST_F(StreamBufferTest, AShortStreamBufferRunsDryAtTheLineItRequestedLate) {
  with_stream_buffer(1);
  run({straight_line(3)});
  // Line 1, requested at cycle 2, is there when the warp reaches it.
  const std::uint64_t line1_fetch = kFirst + 7 * kPeriod + 1;
  static_assert(2 + kMiss <= kFirst + 7 * kPeriod + 1 + kL0Hit);
  EXPECT_EQ(recorder_.records.at(8).cycle, kFirst + 8 * kPeriod);
  // Taking it frees the entry: line 2 is requested at that fetch and arrives kMiss
  // later, after the warp's fetch of it (8 periods on).
  static_assert(7 * kPeriod + 1 + kL0Hit < kMiss);
  EXPECT_EQ(recorder_.records.at(16).cycle, line1_fetch + kMiss + kDecode);
  EXPECT_EQ(recorder_.records.at(23).cycle, line1_fetch + kMiss + kDecode + 7 * kPeriod);
  EXPECT_EQ(sm_->frontend_counters().stream_buffer_hits, 2U);
}

TEST_F(StreamBufferTest, WithoutAStreamBufferEveryNewLinePaysTheMiss) {
  with_stream_buffer(0);
  run({straight_line(2)});
  EXPECT_EQ(recorder_.records.at(7).cycle, kFirst + 7 * kPeriod);
  EXPECT_EQ(recorder_.records.at(8).cycle, kFirst + 7 * kPeriod + 1 + kMiss + kDecode);
  const FrontendCounters& f = sm_->frontend_counters();
  EXPECT_EQ(f.l1i_misses, 2U);
  EXPECT_EQ(f.prefetches, 0U);
  EXPECT_EQ(f.stream_buffer_hits, 0U);
}

TEST_F(StreamBufferTest, ABranchBackIntoCachedCodeHitsTheL0) {
  constexpr std::uint32_t kResolve = 7;
  control_flow().set_branch_resolve_cycles(kResolve);
  with_stream_buffer(2);
  std::vector<std::string> insts;
  for (int i = 0; i < 8; ++i) insts.push_back(fmt::format("{:04x} ffffffff 0 NOP 0 0", 0x10 * i));
  insts.push_back("0080 ffffffff 0 BRA 0 0");  // line 1, back to line 0
  insts.push_back("0000 ffffffff 0 NOP 0 0");
  run({warp_text(0, insts)});
  const std::uint64_t branch = recorder_.records.at(8).cycle;
  EXPECT_EQ(branch, kFirst + 8 * kPeriod);  // line 1 from the stream buffer
  // Fetch resumes kResolve after the branch and hits line 0 in the L0.
  EXPECT_EQ(recorder_.records.at(9).cycle, branch + kResolve + kL0Hit + kDecode);
  const FrontendCounters& f = sm_->frontend_counters();
  EXPECT_EQ(f.l0i_misses, 2U);  // lines 0 and 1
  EXPECT_EQ(f.prefetches, 3U);  // lines 1, 2, then 3 for line 1 taken: no restart
}

TEST_F(StreamBufferTest, WithoutAnL0TheStreamBufferServesTheL1i) {
  with_stream_buffer(2);
  frontend().set_l0i_size_bytes(0);
  run({straight_line(2)});
  // The L1i is the first level: its hits take kL1Hit, and line 1 (requested from the
  // L2 path at cycle 2) is there when the warp reaches it.
  constexpr std::uint64_t kL1Period = 1 + kL1Hit + kDecode;
  static_assert(2 + kMiss <= kFirst + 7 * kL1Period + 1 + kL1Hit);
  EXPECT_EQ(recorder_.records.at(7).cycle, kFirst + 7 * kL1Period);
  EXPECT_EQ(recorder_.records.at(8).cycle, kFirst + 8 * kL1Period);
  const FrontendCounters& f = sm_->frontend_counters();
  EXPECT_EQ(f.l0i_misses, 0U);
  EXPECT_EQ(f.l1i_misses, 2U);  // lines 0 and 1; the stream buffer's requests skip it
  EXPECT_EQ(f.stream_buffer_hits, 1U);
  EXPECT_EQ(f.prefetches, 3U);
}

TEST_F(StreamBufferTest, TheMissLatencyFromTheL2IsTheMemorySystemsL2Hit) {
  with_stream_buffer(2);
  frontend().set_l1i_miss_latency_from_l2(true);
  config_.mutable_sm()->mutable_units()->mutable_memory()->set_latency_cycles(3);
  config_.mutable_l1()->set_hit_latency_cycles(20);
  config_.mutable_interconnect()->set_latency_cycles(30);
  config_.mutable_l2()->set_hit_latency_cycles(90);
  config_.mutable_clocks()->set_l2_mhz(2 * config_.clocks().core_mhz());  // L2 cycles are halves
  const std::uint64_t l2_hit = 3 + 20 + (2 * 30 + 90) / 2;
  EXPECT_EQ(config::l2_hit_latency_cycles(config_), l2_hit);
  run({straight_line(1)});
  EXPECT_EQ(recorder_.cycle_of(0x00), 1 + l2_hit + kDecode);
}

TEST_F(FrontendTest, AnEmptyInstructionBufferIsNoInstruction) {
  frontend().set_ibuffer_entries(1);
  frontend().set_decode_latency_cycles(kDecode);  // no caches: decode only
  run({warp_text(
      0, {"0000 ffffffff 0 NOP 0 0", "0010 ffffffff 0 NOP 0 0", "0020 ffffffff 0 NOP 0 0"})});
  // One entry: each fetch waits for the previous issue, then takes the decode latency.
  EXPECT_EQ(recorder_.cycle_of(0x00), 1 + kDecode);
  EXPECT_EQ(recorder_.cycle_of(0x10), 1 + kDecode + 1 + kDecode);
  EXPECT_EQ(recorder_.cycle_of(0x20), 1 + 2 * (kDecode + 1) + kDecode);
  EXPECT_EQ(cycles_in(WarpCycleState::kNoInstruction), 3 * kDecode);
  EXPECT_EQ(cycles_in(WarpCycleState::kSelected), 3U);
}

TEST_F(FrontendTest, TwoEntriesHideTheDecodeLatencyOfOneCycle) {
  frontend().set_ibuffer_entries(2);
  frontend().set_decode_latency_cycles(1);
  run({warp_text(0, {"0000 ffffffff 0 NOP 0 0", "0010 ffffffff 0 NOP 0 0",
                     "0020 ffffffff 0 NOP 0 0", "0030 ffffffff 0 NOP 0 0"})});
  EXPECT_EQ(recorder_.cycle_of(0x00), 2U);
  EXPECT_EQ(recorder_.cycle_of(0x10), 3U);
  EXPECT_EQ(recorder_.cycle_of(0x20), 4U);
  EXPECT_EQ(recorder_.cycle_of(0x30), 5U);
}

TEST_F(FrontendTest, ATakenBranchCostsExactlyTheBranchResolveCycles) {
  constexpr std::uint32_t kResolve = 7;
  control_flow().set_branch_resolve_cycles(kResolve);
  run({warp_text(0, {"0000 ffffffff 0 BRA 0 0", "0040 ffffffff 0 NOP 0 0"})});
  EXPECT_EQ(recorder_.cycle_of(0x40) - recorder_.cycle_of(0x00), kResolve);
  EXPECT_EQ(cycles_in(WarpCycleState::kBranchResolving), kResolve - 1);
  EXPECT_EQ(sm_->frontend_counters().taken_branches, 1U);
}

TEST_F(FrontendTest, AFallThroughBranchCostsNothing) {
  control_flow().set_branch_resolve_cycles(7);
  run({warp_text(0, {"0000 ffffffff 0 BRA 0 0", "0010 ffffffff 0 NOP 0 0"})});
  EXPECT_EQ(recorder_.cycle_of(0x10) - recorder_.cycle_of(0x00), 1U);
  EXPECT_EQ(sm_->frontend_counters().taken_branches, 0U);
}

TEST_F(FrontendTest, ATakenBranchFlushesTheBufferAndRefetchesTheTarget) {
  constexpr std::uint32_t kResolve = 7;
  control_flow().set_branch_resolve_cycles(kResolve);
  frontend().set_ibuffer_entries(2);
  frontend().set_decode_latency_cycles(1);
  run({warp_text(0, {"0000 ffffffff 0 BRA 0 0", "0040 ffffffff 0 NOP 0 0"})});
  // The target was buffered before the branch issued; it is fetched again after it resolves.
  EXPECT_EQ(recorder_.cycle_of(0x00), 2U);
  EXPECT_EQ(recorder_.cycle_of(0x40), 2U + kResolve + 1);
  EXPECT_EQ(sm_->frontend_counters().fetches, 3U);
}

TEST_F(FrontendTest, PascalCodeSkipsTheControlWordOfEachBundle) {
  EXPECT_EQ(next_sequential_pc(isa::Arch::kSm61, 0x08), 0x10U);
  EXPECT_EQ(next_sequential_pc(isa::Arch::kSm61, 0x18), 0x28U);  // 0x20 is a control word
  EXPECT_EQ(next_sequential_pc(isa::Arch::kSm70, 0x18), 0x28U);
  EXPECT_EQ(next_sequential_pc(isa::Arch::kSm70, 0x10), 0x20U);
  control_flow().set_branch_resolve_cycles(7);
  config_.set_arch("sm_61");
  run({warp_text(0, {"0018 ffffffff 0 BRA 0 0", "0028 ffffffff 0 NOP 0 0"})}, 100, 61);
  EXPECT_EQ(sm_->frontend_counters().taken_branches, 0U);
  EXPECT_EQ(recorder_.cycle_of(0x28) - recorder_.cycle_of(0x18), 1U);
}

TEST_F(FrontendTest, ReconvergenceAndWarpSyncDelayTheNextIssue) {
  control_flow().set_convergence_cycles(5);
  control_flow().set_warpsync_cycles(9);
  run({warp_text(
      0, {"0000 ffffffff 0 BSSY 0 0", "0010 ffffffff 0 WARPSYNC 0 0", "0020 ffffffff 0 NOP 0 0"})});
  EXPECT_EQ(recorder_.cycle_of(0x10) - recorder_.cycle_of(0x00), 5U);
  EXPECT_EQ(recorder_.cycle_of(0x20) - recorder_.cycle_of(0x10), 9U);
}

TEST_F(FrontendTest, AnInstructionCacheSizeNotAMultipleOfItsSetsIsAnError) {
  frontend().set_ibuffer_entries(1);
  frontend().set_l0i_size_bytes(1000);
  try {
    run({warp_text(0, {"0000 ffffffff 0 NOP 0 0"})});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("1000 bytes"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sassim::sim
