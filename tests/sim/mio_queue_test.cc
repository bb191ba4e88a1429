// The LSU instruction queue between a sub-core and the memory pipe (sm.mio_queue):
// the scheduler hands memory instructions over one per cycle, the pipe takes them at
// its interval, global and local ones stop at the watermark, and the sub-cores take
// turns for room in address generation.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sm_harness.h"

namespace sassim::sim::testing {
namespace {

class MioQueueTest : public SmHarness {
 protected:
  static constexpr std::uint32_t kInterval = 4;  // memory pipe: one instruction per 4 cycles

  void SetUp() override {
    SmHarness::SetUp();
    set_memory_interval(kInterval);
    queue(4, 2);
  }

  void queue(std::uint32_t entries, std::uint32_t global_local) {
    config_.mutable_sm()->mutable_mio_queue()->set_entries(entries);
    config_.mutable_sm()->mutable_mio_queue()->set_global_local_entries(global_local);
  }

  std::uint64_t issued(std::size_t index, unsigned warp = 0) const {
    return recorder_.cycle_of(0x10 * index, warp);
  }
  std::uint64_t submitted_cycle(std::size_t index) const {
    return port_->submit_times.at(index) / kCycle;
  }
};

TEST_F(MioQueueTest, SchedulerHandsOverOnePerCycleWhileThePipeTakesOnePerInterval) {
  run({warp_text(0, independent_loads({"LDS.U.32", "LDS.U.32", "LDS.U.32", "LDS.U.32"}))});
  const std::uint64_t first = issued(0);
  ASSERT_EQ(port_->submit_times.size(), 4U);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(issued(i), first + i) << "load " << i;
    // Address generation (1 cycle) from the cycle the pipe takes it.
    EXPECT_EQ(submitted_cycle(i), first + 1 + i * kInterval) << "load " << i;
  }
  EXPECT_EQ(cycles_in(WarpCycleState::kMioThrottle), 0U);
}

TEST_F(MioQueueTest, WithoutAQueueTheWarpWaitsForThePipe) {
  queue(0, 0);
  run({warp_text(0, independent_loads({"LDS.U.32", "LDS.U.32", "LDS.U.32"}))});
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(issued(i), issued(0) + i * kInterval) << "load " << i;
    EXPECT_EQ(submitted_cycle(i), issued(i) + 1) << "load " << i;
  }
  EXPECT_EQ(cycles_in(WarpCycleState::kMioThrottle), 2U * (kInterval - 1));
}

TEST_F(MioQueueTest, GlobalLoadsStopAtTheWatermark) {
  // The pipe takes load 0 at once; loads 1 and 2 wait in the queue (2 = the global
  // watermark), so load 3 issues the cycle after the pipe takes load 1 (first + 4).
  run({warp_text(0, independent_loads({"LDG.E", "LDG.E", "LDG.E", "LDG.E"}))});
  const std::uint64_t first = issued(0);
  EXPECT_EQ(issued(1), first + 1);
  EXPECT_EQ(issued(2), first + 2);
  EXPECT_EQ(issued(3), first + kInterval + 1);
  EXPECT_EQ(cycles_in(WarpCycleState::kLgThrottle), 2U);  // first + 3 and first + 4
  EXPECT_EQ(submitted_cycle(3), first + 1 + 3 * kInterval);
}

TEST_F(MioQueueTest, SharedLoadsPassTheGlobalWatermark) {
  run({warp_text(0, independent_loads({"LDG.E", "LDG.E", "LDG.E", "LDS.U.32"}))});
  EXPECT_EQ(issued(3), issued(0) + 3);
  EXPECT_EQ(cycles_in(WarpCycleState::kLgThrottle), 0U);
  EXPECT_EQ(cycles_in(WarpCycleState::kMioThrottle), 0U);
}

TEST_F(MioQueueTest, SubCoresTakeTurnsForAddressGeneration) {
  // Two sub-cores, a memory port that holds one access for 10 cycles: address
  // generation (one entry per sub-core) fills and each freed entry goes to the sub-core
  // after the last one served. Each warp ends with an add of its last load, which
  // issues once that load is back: with turns the two finish 10 cycles apart; served
  // in a fixed order, sub-core 0 would win every freed entry and finish 20 cycles ahead.
  config_.mutable_sm()->set_sub_cores(2);
  port_capacity_ = 1;
  std::vector<std::string> lines = independent_loads({"LDG.E", "LDG.E", "LDG.E"});
  lines.push_back("0030 ffffffff 1 R10 FADD 2 R6 R6 0");
  run({warp_text(0, lines), warp_text(1, lines)}, 10);
  ASSERT_EQ(port_->submit_times.size(), 6U);
  for (std::size_t i = 1; i < 6; ++i) {
    EXPECT_EQ(submitted_cycle(i), submitted_cycle(i - 1) + 10) << "access " << i;
  }
  const std::uint64_t end0 = recorder_.cycle_of(0x30, 0), end1 = recorder_.cycle_of(0x30, 1);
  EXPECT_EQ(end1, end0 + 10);
}

}  // namespace
}  // namespace sassim::sim::testing
