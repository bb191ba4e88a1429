// Which throttle state a memory instruction held by a busy memory pipe counts as:
// Nsight Compute's mio_throttle for shared memory, lg_throttle for global and local.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sm_harness.h"

namespace sassim::sim::testing {
namespace {

class ThrottleStateTest : public SmHarness {
 protected:
  static constexpr std::uint32_t kInterval = 4;  // memory pipe: one instruction per 4 cycles

  void SetUp() override {
    SmHarness::SetUp();
    set_memory_interval(kInterval);
  }

  static constexpr unsigned kLoads = 3;

  // One warp issues kLoads independent loads of `opcode` back to back: each after the
  // first waits interval - 1 cycles for the pipe, in state `held`, none in `other`.
  void expect_loads_held_in(const std::string& opcode, WarpCycleState held, WarpCycleState other) {
    run({warp_text(0, independent_loads(std::vector<std::string>(kLoads, opcode)))});
    for (unsigned i = 1; i < kLoads; ++i) {
      EXPECT_EQ(recorder_.cycle_of(0x10 * i), recorder_.cycle_of(0) + i * kInterval);
    }
    EXPECT_EQ(cycles_in(held), (kLoads - 1) * (kInterval - 1));
    EXPECT_EQ(cycles_in(other), 0U);
  }
};

TEST_F(ThrottleStateTest, SharedLoadsWaitingForTheMemoryPipeAreMioThrottle) {
  expect_loads_held_in("LDS.U.32", WarpCycleState::kMioThrottle, WarpCycleState::kLgThrottle);
}

TEST_F(ThrottleStateTest, GlobalLoadsWaitingForTheMemoryPipeAreLgThrottle) {
  expect_loads_held_in("LDG.E", WarpCycleState::kLgThrottle, WarpCycleState::kMioThrottle);
}

TEST(WarpStateNames, MioThrottleHasNsightsName) {
  EXPECT_EQ(warp_cycle_state_name(WarpCycleState::kMioThrottle), "mio_throttle");
  EXPECT_EQ(warp_cycle_state_name(WarpCycleState::kLgThrottle), "lg_throttle");
}

}  // namespace
}  // namespace sassim::sim::testing
