// CTA turnaround that comes out of the model (launch latency, the CTA's instructions,
// its store drain, retirement): one CTA per SM of the RRZE gpu-stream init kernel
// (tests/support/cta_measurements.h) against that kernel's measured bandwidth. The
// 16-thread points set the presets' CTA launch latency (a calibration); the larger
// blocks are checks, within 10%.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "configs/config_loader.h"
#include "tests/support/cta_measurements.h"

namespace sassim::e2e {
namespace {

class CtaTurnaround : public ::testing::TestWithParam<measure::StreamInitPoint> {};

TEST_P(CtaTurnaround, MatchesTheMeasuredKernel) {
  const measure::StreamInitPoint& p = GetParam();
  const double model = measure::cta_turnaround_cycles(config::load_config(p.preset), p.threads);
  std::printf("%s, %u threads: %.1f cycles per CTA (measured %.1f)\n", p.preset, p.threads, model,
              p.turnaround());
  // Calibration points within 1%, checks within 10%.
  EXPECT_NEAR(model, p.turnaround(), (p.calibration ? 0.01 : 0.1) * p.turnaround());
}

INSTANTIATE_TEST_SUITE_P(Presets, CtaTurnaround,
                         ::testing::ValuesIn(measure::stream_init_points().begin(),
                                             measure::stream_init_points().end()),
                         [](const auto& point) {
                           return std::string(point.param.preset) + "_" +
                                  std::to_string(point.param.threads) + "_threads";
                         });

TEST(CtaTurnaroundReference, FollowsFromTheBandwidth) {
  // 16 threads x 8 B on each of 108 SMs at 54 GB/s: 128 B per 256 ns per SM, at 1410 MHz.
  EXPECT_NEAR(measure::turnaround_from_bandwidth(54, 108, 16, 1410), 360.96, 0.01);
}

}  // namespace
}  // namespace sassim::e2e
