// Exact-cycle tests of CTA barriers (ids, thread counts, BAR.ARV), MEMBAR and the
// drain of a warp's stores after EXIT.
#include <gtest/gtest.h>

#include <string>

#include "sm_harness.h"

namespace sassim::sim {
namespace {

using testing::warp_text;

class BarrierTest : public testing::SmHarness {};

TEST_F(BarrierTest, ArriveDoesNotBlockAndCountsTowardsTheBarrier) {
  // Warp 0 (older, issued first by GTO) arrives at barrier 1 and runs on; warp 1's
  // BAR.SYNC completes the two-warp barrier and resumes a cycle later.
  run({warp_text(0, {"0000 ffffffff 0 BAR.ARV.1.64 0 0", "0010 ffffffff 0 NOP 0 0"}),
       warp_text(1, {"0020 ffffffff 0 BAR.SYNC.1.64 0 0", "0030 ffffffff 0 NOP 0 0"})});
  EXPECT_EQ(recorder_.cycle_of(0x00, 0), 1U);
  EXPECT_EQ(recorder_.cycle_of(0x10, 0), 2U);  // not held
  EXPECT_EQ(recorder_.cycle_of(0x20, 1), 3U);
  EXPECT_EQ(recorder_.cycle_of(0x30, 1), 4U);
  EXPECT_EQ(sm_->counters().barrier_waits, 1U);
}

TEST_F(BarrierTest, ArriveReleasesAWarpWaitingAtTheSameBarrier) {
  run({warp_text(0, {"0000 ffffffff 0 BAR.SYNC.2.64 0 0", "0010 ffffffff 0 NOP 0 0"}),
       warp_text(1, {"0020 ffffffff 0 BAR.ARV.2.64 0 0", "0030 ffffffff 0 NOP 0 0"})});
  EXPECT_EQ(recorder_.cycle_of(0x00, 0), 1U);
  EXPECT_EQ(recorder_.cycle_of(0x20, 1), 2U);
  // Released at 2, ready at 3; GTO stays on warp 1 for cycle 3.
  EXPECT_EQ(recorder_.cycle_of(0x30, 1), 3U);
  EXPECT_EQ(recorder_.cycle_of(0x10, 0), 4U);
  EXPECT_EQ(cycles_in(WarpCycleState::kBarrier), 1U);  // warp 0 in cycle 2
}

// Warps 0 and 1 sync; warp 2 loads (memory latency 100) and uses the value, so it
// exits only after cycle 100.
std::vector<std::string> two_of_three(const std::string& bar) {
  const std::string sync = "0000 ffffffff 0 " + bar + " 0 0";
  return {warp_text(0, {sync, "0010 ffffffff 1 R5 MOV 0 0"}),
          warp_text(1, {sync, "0010 ffffffff 1 R5 MOV 0 0"}),
          warp_text(2, {"0020 ffffffff 1 R4 LDG.E 1 R2 4 1 0x1000 4",
                        "0030 ffffffff 1 R6 IADD3 1 R4 0"})};
}

TEST_F(BarrierTest, ACountedBarrierReleasesWhenThatManyThreadsArrived) {
  run(two_of_three("BAR.SYNC.3.64"));
  EXPECT_EQ(recorder_.cycle_of(0x00, 1), 2U);
  // Two warps = 64 threads: both released at once and ready at 3 (GTO: warp 1 first).
  EXPECT_EQ(recorder_.cycle_of(0x10, 1), 3U);
  EXPECT_EQ(recorder_.cycle_of(0x10, 0), 4U);
}

TEST_F(BarrierTest, ABarrierWithoutACountWaitsForEveryWarpThatHasNotExited) {
  run(two_of_three("BAR.SYNC"));
  // Warp 2's load issues at 3, its value is back at 3 + 1 + 100; it uses it and exits.
  EXPECT_EQ(recorder_.cycle_of(0x30, 2), 104U);
  EXPECT_EQ(recorder_.cycle_of(0x10, 0), 106U);  // warp 2 exited at 105
}

TEST_F(BarrierTest, MembarWaitsForTheWarpsOutstandingLoad) {
  run({warp_text(0, {"0000 ffffffff 1 R4 LDG.E 1 R2 4 1 0x1000 4",
                     "0010 ffffffff 0 MEMBAR.SC.GPU 0 0", "0020 ffffffff 1 R6 MOV 0 0"})});
  EXPECT_EQ(recorder_.cycle_of(0x10), 2U);
  // The load leaves address generation at 2 and is back at 102; MOV reads no load result.
  EXPECT_EQ(recorder_.cycle_of(0x20), 102U);
  EXPECT_EQ(cycles_in(WarpCycleState::kMembar), 99U);  // cycles 3..101
}

// MEMBAR at GPU scope waits for the L2's acknowledgement of the warp's earlier store;
// at CTA scope only for the store to leave the SM.
class AcknowledgedStoreTest : public BarrierTest {
 protected:
  // A store (memory latency 50, acknowledgement after 80), then `membar` and a MOV.
  void store_then_membar(const std::string& membar) {
    write_ack_cycles_ = 80;
    run({warp_text(0, {"0000 ffffffff 0 STG.E 2 R2 R3 4 1 0x1000 4",
                       "0010 ffffffff 0 " + membar + " 0 0", "0020 ffffffff 1 R6 MOV 0 0"})},
        50);
  }
};

TEST_F(AcknowledgedStoreTest, MembarAtGpuScopeWaitsForTheStoresAcknowledgement) {
  store_then_membar("MEMBAR.SC.GPU");
  EXPECT_EQ(recorder_.cycle_of(0x10), 2U);
  // The store leaves address generation at 2; its acknowledgement is back at 2 + 80.
  EXPECT_EQ(recorder_.cycle_of(0x20), 82U);
  EXPECT_EQ(cycles_in(WarpCycleState::kMembar), 79U);  // cycles 3..81
}

TEST_F(AcknowledgedStoreTest, MembarAtCtaScopeDoesNotWaitForAcknowledgements) {
  store_then_membar("MEMBAR.ALL.CTA");
  EXPECT_EQ(recorder_.cycle_of(0x20), 52U);  // the store's own token: 2 + 50
}

TEST_F(BarrierTest, ExitDoesNotWaitForAcknowledgements) {
  write_ack_cycles_ = 80;
  run({warp_text(0, {"0000 ffffffff 0 STG.E 2 R2 R3 4 1 0x1000 4", "0010 ffffffff 0 EXIT 0 0"})},
      50);
  EXPECT_EQ(cycles_in(WarpCycleState::kDrain), 49U);  // cycles 3..51, as without them
  EXPECT_EQ(end_cycle_, 52U);  // the CTA retires; the memory system drains the rest
}

TEST_F(BarrierTest, ExitDrainsTheWarpsStores) {
  run({warp_text(0, {"0000 ffffffff 0 STG.E 2 R2 R3 4 1 0x1000 4", "0010 ffffffff 0 EXIT 0 0"})},
      50);
  EXPECT_EQ(recorder_.cycle_of(0x10), 2U);
  EXPECT_EQ(end_cycle_, 52U);  // store issued at 1, address generation 1, memory 50
  EXPECT_EQ(cycles_in(WarpCycleState::kDrain), 49U);  // cycles 3..51
}

}  // namespace
}  // namespace sassim::sim
