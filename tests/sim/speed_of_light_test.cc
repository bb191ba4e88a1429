// Speed of light (sim/speed_of_light.h) of synthetic work against synthetic peaks: each
// percentage, the binding limit and its tie rule, the arithmetic intensity, operand
// types without a peak, and the result columns' names.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "ground/error.h"
#include "sim/speed_of_light.h"

namespace sassim::sim {
namespace {

constexpr std::size_t kBf16 = static_cast<std::size_t>(isa::MmaType::kBf16);
constexpr std::size_t kFp8 = static_cast<std::size_t>(isa::MmaType::kFp8);
constexpr std::size_t kInt4 = static_cast<std::size_t>(isa::MmaType::kInt4);

double at(const SpeedOfLight& s, SolLimit limit) {
  return s.pct[static_cast<std::size_t>(limit)];
}

// Round numbers: every percentage below is exact in binary floating point.
config::GpuPeaks peaks() {
  config::GpuPeaks p;
  p.tensor_flops_per_second[kBf16] = 1000;
  p.tensor_flops_per_second[kFp8] = 2000;
  p.fp32_flops_per_second = 100;
  p.fp16_flops_per_second = 200;
  p.fp64_flops_per_second = 50;
  p.int_alu_insts_per_second = 40;
  p.int_mad_insts_per_second = 20;
  p.issue_warp_insts_per_second = 80;
  p.l1_bytes_per_second = 400;
  p.l2_bytes_per_second = 160;
  p.dram_bytes_per_second = 64;
  return p;
}

SolWork work() {
  SolWork w;
  w.seconds = 2;
  w.tensor_flops[kBf16] = 500;  // 25% of 1000 x 2
  w.tensor_flops[kFp8] = 1000;  // 25% of 2000 x 2
  w.fp32_flops = 50;            // 25%
  w.fp16_flops = 100;           // 25%
  w.fp64_flops = 10;            // 10%
  w.int_alu_insts = 20;         // 25%
  w.int_mad_insts = 15;         // 37.5%: the busier integer pipe
  w.warp_insts = 40;            // 25%
  w.l1_bytes = 200;             // 25%
  w.l2_bytes = 96;              // 30%
  w.dram_bytes = 96;            // 75%
  return w;
}

TEST(SpeedOfLight, EachLimitIsItsWorkOverPeakTimesTime) {
  const SpeedOfLight s = speed_of_light(work(), peaks());
  EXPECT_EQ(s.tensor_pct[kBf16], 25.0);
  EXPECT_EQ(s.tensor_pct[kFp8], 25.0);
  EXPECT_EQ(at(s, SolLimit::kTensor), 50.0);  // the pipes' time at peak rates adds up
  EXPECT_EQ(at(s, SolLimit::kFp32), 25.0);
  EXPECT_EQ(at(s, SolLimit::kFp16), 25.0);
  EXPECT_EQ(at(s, SolLimit::kFp64), 10.0);
  EXPECT_EQ(at(s, SolLimit::kInt), 37.5);
  EXPECT_EQ(at(s, SolLimit::kIssue), 25.0);
  EXPECT_EQ(at(s, SolLimit::kL1), 25.0);
  EXPECT_EQ(at(s, SolLimit::kL2), 30.0);
  EXPECT_EQ(at(s, SolLimit::kDram), 75.0);
  EXPECT_TRUE(s.bound);
  EXPECT_EQ(s.bound_by, SolLimit::kDram);
  EXPECT_EQ(s.bound_by_name(), "dram");
  // (500 + 1000 + 50 + 100 + 10) FLOPs over 96 DRAM bytes.
  EXPECT_DOUBLE_EQ(s.arithmetic_intensity, 1660.0 / 96);
  EXPECT_EQ(s.tensor_unpriced, 0U);
  // Types without a peak are NaN, kNone included.
  EXPECT_TRUE(std::isnan(s.tensor_pct[0]));
  EXPECT_TRUE(std::isnan(s.tensor_pct[kInt4]));
}

TEST(SpeedOfLight, TheHighestBindsAndTiesGoToTheFirstLimit) {
  SolWork w = work();
  w.dram_bytes = 0;
  w.tensor_flops[kBf16] = 1000;  // tensor 50% + 25% = 75%
  w.l2_bytes = 120;              // 37.5%
  SpeedOfLight s = speed_of_light(w, peaks());
  EXPECT_EQ(s.bound_by, SolLimit::kTensor);
  EXPECT_TRUE(std::isinf(s.arithmetic_intensity));  // FLOPs and no DRAM traffic
  w.tensor_flops = {};
  w.int_mad_insts = 0;
  w.fp64_flops = 0;
  // fp32, fp16, int, issue, l1 all at 25%, l2 at 37.5%: l2.
  s = speed_of_light(w, peaks());
  EXPECT_EQ(s.bound_by, SolLimit::kL2);
  w.l2_bytes = 80;  // now six limits at 25%: fp32 comes first
  s = speed_of_light(w, peaks());
  EXPECT_EQ(at(s, SolLimit::kL2), 25.0);
  EXPECT_EQ(s.bound_by, SolLimit::kFp32);
}

TEST(SpeedOfLight, NothingRanIsBoundByNothing) {
  SolWork w;
  w.seconds = 1;
  const SpeedOfLight s = speed_of_light(w, peaks());
  EXPECT_FALSE(s.bound);
  EXPECT_EQ(s.bound_by_name(), "none");
  EXPECT_TRUE(std::isnan(s.arithmetic_intensity));
  for (double p : s.pct) EXPECT_EQ(p, 0.0);
  // No time at all: no percentages either, not a division by zero.
  const SpeedOfLight zero = speed_of_light(SolWork{}, peaks());
  EXPECT_FALSE(zero.bound);
  EXPECT_EQ(zero.tensor_pct[kBf16], 0.0);
}

TEST(SpeedOfLight, FlopsOfATypeWithoutAPeakAreNamedNotCounted) {
  SolWork w = work();
  w.tensor_flops[kInt4] = 4000;
  const SpeedOfLight s = speed_of_light(w, peaks());
  EXPECT_EQ(s.tensor_unpriced, 1U << kInt4);
  EXPECT_EQ(at(s, SolLimit::kTensor), 50.0);  // bf16 and fp8 only
  EXPECT_TRUE(std::isnan(s.tensor_pct[kInt4]));
  EXPECT_DOUBLE_EQ(s.arithmetic_intensity, 5660.0 / 96);  // still FLOPs of the kernel
}

TEST(SpeedOfLight, RescaledToAnotherTimeScalesEveryPercentage) {
  // Twice the time (scale 0.5): dram 75% -> 37.5%, int 37.5% -> 18.75%, tensor 50% -> 25%;
  // issue set to 40%, which now binds.
  const SpeedOfLight s = rescaled(speed_of_light(work(), peaks()), 0.5, 40.0);
  EXPECT_EQ(at(s, SolLimit::kDram), 37.5);
  EXPECT_EQ(at(s, SolLimit::kInt), 18.75);
  EXPECT_EQ(at(s, SolLimit::kTensor), 25.0);
  EXPECT_EQ(s.tensor_pct[kFp8], 12.5);
  EXPECT_TRUE(std::isnan(s.tensor_pct[kInt4]));
  EXPECT_EQ(at(s, SolLimit::kIssue), 40.0);
  EXPECT_EQ(s.bound_by, SolLimit::kIssue);
  EXPECT_DOUBLE_EQ(s.arithmetic_intensity, 1660.0 / 96);  // the same work and bytes
}

TEST(SpeedOfLight, LimitNamesRoundTripAndAnUnknownOneIsAnError) {
  for (std::size_t i = 0; i < kNumSolLimits; ++i) {
    const auto limit = static_cast<SolLimit>(i);
    EXPECT_EQ(sol_limit_from_name(sol_limit_name(limit)), limit);
  }
  try {
    sol_limit_from_name("hbm");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'hbm'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("tensor, fp32, fp16, fp64, int, issue, l1, l2, dram"),
              std::string::npos)
        << e.what();
  }
}

TEST(SpeedOfLight, ColumnsAreNamedPerLimitThenPerTypeThenIntensity) {
  const auto columns = sol_columns(speed_of_light(work(), peaks()));
  ASSERT_EQ(columns.size(), 18U);
  EXPECT_EQ(columns[0].name, "sol_tensor_pct");
  EXPECT_EQ(columns[0].value, 50.0);
  EXPECT_EQ(columns[8].name, "sol_dram_pct");
  EXPECT_EQ(columns[8].value, 75.0);
  EXPECT_EQ(columns[9].name, "sol_tensor_f16_pct");
  EXPECT_TRUE(std::isnan(columns[9].value));
  EXPECT_EQ(columns[10].name, "sol_tensor_bf16_pct");
  EXPECT_EQ(columns[10].value, 25.0);
  EXPECT_EQ(columns[16].name, "sol_tensor_binary_pct");
  EXPECT_EQ(columns[17].name, "arithmetic_intensity");
}

}  // namespace
}  // namespace sassim::sim
