// Exact-cycle tests of instruction fetch (L0/L1 instruction caches, instruction
// buffer, decode) and of control flow (taken branches, reconvergence costs).
#include <gtest/gtest.h>

#include "isa/error.h"
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
