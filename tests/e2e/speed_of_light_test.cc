// Speed of light end to end: saturating wgmma traces on h100 are bound by the tensor
// pipes at their datasheet rate, and on the bundled reference traces every percentage is
// in range, bound_by is the highest, and the figures follow from the kernel's counters.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "configs/peaks.h"
#include "e2e_fixtures.h"
#include "tests/support/tensor_measurements.h"

namespace sassim::e2e {
namespace {

double pct(const sim::SpeedOfLight& s, sim::SolLimit limit) {
  return s.pct[static_cast<std::size_t>(limit)];
}

struct WgmmaCase {
  const char* opcode;
  isa::MmaType type;
  double datasheet_tflops;  // [H100] whitepaper dense peak at 1,830 MHz (the preset's clock)
};

class SaturatingWgmma : public ::testing::TestWithParam<WgmmaCase> {};

TEST_P(SaturatingWgmma, IsBoundByTheTensorPipesNearTheirPeak) {
  const WgmmaCase& c = GetParam();
  const sim::KernelResult r =
      measure::run_trace_result("h100", measure::saturating_warpgroup_trace("h100", c.opcode));
  const sim::SpeedOfLight& s = r.sol;
  const auto t = static_cast<std::size_t>(c.type);
  std::printf("h100 %s: bound by %s, tensor %.1f%%, issue %.2f%%, l1 %.1f%%\n", c.opcode,
              std::string(s.bound_by_name()).c_str(), s.tensor_pct[t],
              pct(s, sim::SolLimit::kIssue), pct(s, sim::SolLimit::kL1));
  EXPECT_EQ(s.bound_by, sim::SolLimit::kTensor);
  // The achieved rate over the published peak, computed from the kernel's TFLOP/s.
  EXPECT_NEAR(s.tensor_pct[t], 100 * r.tensor_tflops / c.datasheet_tflops, 0.1);
  EXPECT_GT(s.tensor_pct[t], 95.0);
  EXPECT_LE(s.tensor_pct[t], 100.0);
  EXPECT_DOUBLE_EQ(pct(s, sim::SolLimit::kTensor), s.tensor_pct[t]);  // one type only
  for (std::size_t i = 0; i < sim::kNumSolLimits; ++i) {
    if (i != static_cast<std::size_t>(sim::SolLimit::kTensor)) EXPECT_LT(s.pct[i], 70.0) << i;
  }
  // A and B come from shared memory: (64 x K + K x 256) elements of each 64x256xK
  // operation, 10,240 bytes for both BF16 (K = 16, 2 bytes) and FP8 (K = 32, 1 byte),
  // every 128 cycles at the peak, through the L1 data path's 128 bytes a cycle: 62.5%.
  EXPECT_NEAR(pct(s, sim::SolLimit::kL1), 62.5 * s.tensor_pct[t] / 100, 0.5);
  // Operand and accumulator traffic stays on chip: no DRAM bytes, infinite intensity.
  EXPECT_TRUE(std::isinf(s.arithmetic_intensity));
}

INSTANTIATE_TEST_SUITE_P(
    H100, SaturatingWgmma,
    ::testing::Values(WgmmaCase{"HGMMA.64x256x16.F32.BF16", isa::MmaType::kBf16, 989.4},
                      WgmmaCase{"QGMMA.64x256x32.F32.E4M3.E4M3", isa::MmaType::kFp8, 1978.9}));

// Every kernel of every bundled reference trace: percentages in range and consistent with
// the counters, bound_by the highest.
TEST(SpeedOfLightReference, PercentagesFollowFromTheCounters) {
  for (const ReferenceTrace& t : reference_traces()) {
    SCOPED_TRACE(t.name);
    const config::GpuConfig config = config::load_config(t.preset);
    const config::GpuPeaks peaks = config::gpu_peaks(config);
    for (const sim::KernelResult& r : replay(t)) {
      const sim::SpeedOfLight& s = r.sol;
      SCOPED_TRACE(r.info.name);
      for (double p : s.pct) {
        EXPECT_GE(p, 0.0);
        EXPECT_LE(p, 100.5);  // a byte credit banks at most one cycle's worth ahead
      }
      EXPECT_EQ(pct(s, s.bound_by), *std::max_element(s.pct.begin(), s.pct.end()));
      EXPECT_TRUE(s.bound);
      // Issue slots and DRAM as the result's own figures state them.
      EXPECT_NEAR(pct(s, sim::SolLimit::kIssue),
                  100.0 * static_cast<double>(r.warp_insts) / static_cast<double>(r.issue_slots),
                  1e-9);
      EXPECT_NEAR(pct(s, sim::SolLimit::kDram),
                  100.0 * r.dram_gbps * 1e9 / peaks.dram_bytes_per_second, 1e-9);
      const double flops =
          r.stats.sum("gpu.sm[", ".flops.fp32") + r.stats.sum("gpu.sm[", ".flops.fp16") +
          r.stats.sum("gpu.sm[", ".flops.fp64") + r.stats.sum("gpu.sm[", ".flops.tensor");
      if (r.dram_bytes > 0) EXPECT_DOUBLE_EQ(s.arithmetic_intensity, flops / r.dram_bytes);
      const double l2_bytes = r.stats.sum("gpu.l2.slice[", ".data_bytes");
      EXPECT_NEAR(pct(s, sim::SolLimit::kL2),
                  100.0 * l2_bytes / (peaks.l2_bytes_per_second * r.seconds), 1e-9);
    }
  }
}

}  // namespace
}  // namespace sassim::e2e
