// simulation.deadlock_cycles must exceed the longest fixed wait the config sets.
#include "configs/deadlock_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "configs/config_loader.h"
#include "tests/configs/error_matchers.h"

namespace sassim::config {
namespace {

using ::testing::AllOf;
using testing::error_of;
using ::testing::HasSubstr;

// a100: 230 cycles + 1,263 ns of grid launch at 1,410 MHz = 2,010.8 cycles.
TEST(DeadlockCycles, A100FloorIsItsGridLaunch) {
  const LongestWait wait = longest_fixed_wait(load_config("a100"));
  EXPECT_NEAR(wait.core_cycles, 230 + 1263 * 1.41, 1e-6);
  EXPECT_EQ(wait.fields, "sm.grid_launch_cycles = 230 + sm.grid_launch_ns = 1263");
}

TEST(DeadlockCycles, BelowTheFloorIsALoadErrorNamingBothFields) {
  EXPECT_THAT(error_of([] { load_config("a100", {"simulation.deadlock_cycles=100"}); }),
              AllOf(HasSubstr("invalid config"),
                    HasSubstr("simulation.deadlock_cycles = 100 is not above the longest fixed "
                              "wait of the config, 2010.8 core cycles, set by "
                              "sm.grid_launch_cycles = 230 + sm.grid_launch_ns = 1263 "
                              "(clocks.core_mhz = 1410): expected at least 2011")));
  EXPECT_THAT(error_of([] { load_config("a100", {"simulation.deadlock_cycles=2010"}); }),
              HasSubstr("expected at least 2011"));
  EXPECT_NO_THROW(load_config("a100", {"simulation.deadlock_cycles=2011"}));
}

TEST(DeadlockCycles, TheLongestWaitNamesItsField) {
  GpuConfig c = load_config("a100");
  c.mutable_sm()->set_cta_launch_latency_cycles(50000);
  LongestWait wait = longest_fixed_wait(c);
  EXPECT_EQ(wait.core_cycles, 50000);
  EXPECT_EQ(wait.fields, "sm.cta_launch_latency_cycles = 50000");

  // L2 cycles count at the L2's clock: 9,000 of them at half the core clock.
  c = load_config("a100");
  c.mutable_clocks()->set_l2_mhz(705);
  c.mutable_l2()->set_hit_latency_cycles(9000);
  wait = longest_fixed_wait(c);
  EXPECT_EQ(wait.core_cycles, 18000);
  EXPECT_EQ(wait.fields, "l2.hit_latency_cycles = 9000 (L2 cycles, clocks.l2_mhz = 705)");

  c = load_config("a100");
  c.mutable_sm()->mutable_opcode_latency_cycles()->insert({"MUFU", 9999});
  EXPECT_EQ(longest_fixed_wait(c).fields, "sm.opcode_latency_cycles.MUFU = 9999");

  c = load_config("a100");
  c.mutable_dram()->set_latency_ns(10000);
  wait = longest_fixed_wait(c);
  EXPECT_NEAR(wait.core_cycles, (10000 + 350 + 14 + 14 + 14) * 1.41, 1e-6);
  EXPECT_THAT(wait.fields, HasSubstr("dram.latency_ns = 10000 + dram.t_rfc_ns = 350"));
}

TEST(DeadlockCycles, EveryPresetsDefaultIsAboveItsFloor) {
  for (const std::string& name : preset_names()) {
    const GpuConfig c = load_config(name);
    EXPECT_GT(static_cast<double>(c.simulation().deadlock_cycles()),
              longest_fixed_wait(c).core_cycles)
        << name;
  }
}

}  // namespace
}  // namespace sassim::config
