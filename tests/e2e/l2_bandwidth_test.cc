// L2 bandwidth that comes out of the model: every SM streams wide loads over an
// L2-resident footprint (tests/support/memory_measurements.h), against Luo et al.,
// IPDPS 2024, Table V: 2,008 B/clk on A100 and 3,942 B/clk on H800 (the h100 preset
// with the H800 PCIe's 114 SMs), within 15%.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "configs/config_loader.h"
#include "tests/support/memory_measurements.h"

namespace sassim::e2e {
namespace {

struct Expected {
  std::string preset;
  std::vector<std::string> overrides;
  double bytes_per_cycle;
};

class L2Bandwidth : public ::testing::TestWithParam<Expected> {};

TEST_P(L2Bandwidth, WithinFifteenPercentOfMeasurements) {
  const Expected& e = GetParam();
  const double b = measure::l2_bytes_per_cycle(config::load_config(e.preset, e.overrides));
  std::printf("%s: L2 %.0f B/clk (measured %.0f)\n", e.preset.c_str(), b, e.bytes_per_cycle);
  EXPECT_NEAR(b, e.bytes_per_cycle, 0.15 * e.bytes_per_cycle);
}

INSTANTIATE_TEST_SUITE_P(Presets, L2Bandwidth,
                         ::testing::Values(Expected{"a100", {}, 2008},
                                           Expected{
                                               "h100", {"num_sms=114", "cluster.gpc_sms="}, 3942}),
                         [](const auto& param_info) { return param_info.param.preset; });

}  // namespace
}  // namespace sassim::e2e
