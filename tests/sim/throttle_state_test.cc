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
    config_.mutable_sm()->mutable_units()->mutable_memory()->set_initiation_interval_cycles(
        kInterval);
  }

  // One warp issuing `n` independent loads of `opcode` back to back.
  void run_loads(const std::string& opcode, unsigned n) {
    std::vector<std::string> lines;
    for (unsigned i = 0; i < n; ++i) {
      lines.push_back(fmt::format("{:04x} ffffffff 1 R{} {} 1 R2 4 1 0x{:x} 4", 0x10 * i, 4 + i,
                                  opcode, 0x100 * (i + 1)));
    }
    run({warp_text(0, lines)});
  }
};

TEST_F(ThrottleStateTest, SharedLoadsWaitingForTheMemoryPipeAreMioThrottle) {
  constexpr unsigned kLoads = 3;
  run_loads("LDS.U.32", kLoads);
  // Each load after the first waits interval - 1 cycles for the pipe.
  for (unsigned i = 1; i < kLoads; ++i) {
    EXPECT_EQ(recorder_.cycle_of(0x10 * i), recorder_.cycle_of(0) + i * kInterval);
  }
  EXPECT_EQ(cycles_in(WarpCycleState::kMioThrottle), (kLoads - 1) * (kInterval - 1));
  EXPECT_EQ(cycles_in(WarpCycleState::kLgThrottle), 0U);
}

TEST_F(ThrottleStateTest, GlobalLoadsWaitingForTheMemoryPipeAreLgThrottle) {
  constexpr unsigned kLoads = 3;
  run_loads("LDG.E", kLoads);
  for (unsigned i = 1; i < kLoads; ++i) {
    EXPECT_EQ(recorder_.cycle_of(0x10 * i), recorder_.cycle_of(0) + i * kInterval);
  }
  EXPECT_EQ(cycles_in(WarpCycleState::kLgThrottle), (kLoads - 1) * (kInterval - 1));
  EXPECT_EQ(cycles_in(WarpCycleState::kMioThrottle), 0U);
}

TEST(WarpStateNames, MioThrottleHasNsightsName) {
  EXPECT_EQ(warp_cycle_state_name(WarpCycleState::kMioThrottle), "mio_throttle");
  EXPECT_EQ(warp_cycle_state_name(WarpCycleState::kLgThrottle), "lg_throttle");
}

}  // namespace
}  // namespace sassim::sim::testing
