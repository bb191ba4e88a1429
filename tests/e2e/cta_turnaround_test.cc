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

struct Point {
  std::string preset;
  std::uint32_t sms;
  double mhz;
  std::uint32_t threads;
  double gbps;
  double tolerance;  // fraction of the reference
};

class CtaTurnaround : public ::testing::TestWithParam<Point> {};

TEST_P(CtaTurnaround, MatchesTheMeasuredKernel) {
  const Point& p = GetParam();
  const double model = measure::cta_turnaround_cycles(config::load_config(p.preset), p.threads);
  const double reference = measure::turnaround_from_bandwidth(p.gbps, p.sms, p.threads, p.mhz);
  std::printf("%s, %u threads: %.1f cycles per CTA (measured %.1f)\n", p.preset.c_str(), p.threads,
              model, reference);
  EXPECT_NEAR(model, reference, p.tolerance * reference);
}

// gpu-stream/{v100,a100_40,gh200}.txt, init column, one CTA per SM.
INSTANTIATE_TEST_SUITE_P(Presets, CtaTurnaround,
                         ::testing::Values(Point{"v100", 80, 1380, 16, 39, 0.01},
                                           Point{"v100", 80, 1380, 160, 369, 0.1},
                                           Point{"a100", 108, 1410, 16, 54, 0.01},
                                           Point{"a100", 108, 1410, 256, 802, 0.1},
                                           Point{"a100", 108, 1410, 512, 1501, 0.1},
                                           Point{"h100", 132, 1980, 16, 77, 0.01},
                                           Point{"h100", 132, 1980, 160, 731, 0.1}),
                         [](const auto& point) {
                           return point.param.preset + "_" + std::to_string(point.param.threads) +
                                  "_threads";
                         });

TEST(CtaTurnaroundReference, FollowsFromTheBandwidth) {
  // 16 threads x 8 B on each of 108 SMs at 54 GB/s: 128 B per 256 ns per SM, at 1410 MHz.
  EXPECT_NEAR(measure::turnaround_from_bandwidth(54, 108, 16, 1410), 360.96, 0.01);
}

}  // namespace
}  // namespace sassim::e2e
