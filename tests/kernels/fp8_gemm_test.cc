// The FP8 GEMM's host side: E4M3 encoding and decoding (kernels/e4m3.h), its inputs,
// its CPU reference against a triple loop, and its launch description.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "kernels/e4m3.h"
#include "kernels/fp8_gemm_wgmma.h"
#include "kernels/suite.h"
#include "kernels/values.h"

namespace sassim::kernels {
namespace {

TEST(E4m3Test, DecodesNormalsSubnormalsAndNan) {
  EXPECT_EQ(e4m3_to_float(0x38), 1.0F);    // 0.0111.000: 2^(7-7)
  EXPECT_EQ(e4m3_to_float(0x7e), 448.0F);  // 0.1111.110: 2^8 x 1.75, the largest finite
  EXPECT_EQ(e4m3_to_float(0x08), 0x1p-6F);
  EXPECT_EQ(e4m3_to_float(0x03), 3 * 0x1p-9F);  // subnormal
  EXPECT_EQ(e4m3_to_float(0xc4), -3.0F);        // 1.1000.100: -2^1 x 1.5
  EXPECT_TRUE(std::isnan(e4m3_to_float(0x7f)));
  EXPECT_TRUE(std::isnan(e4m3_to_float(0xff)));
}

TEST(E4m3Test, EncodingRoundsToNearestEvenAndSaturates) {
  for (int code = 0; code < 256; ++code) {  // every finite code round-trips
    if ((code & 0x7f) == 0x7f) continue;
    const auto bits = static_cast<uint8_t>(code);
    EXPECT_EQ(float_to_e4m3(e4m3_to_float(bits)), bits) << code;
  }
  EXPECT_EQ(float_to_e4m3(1.0625F), 0x38);       // halfway between 1 and 1.125: even (1)
  EXPECT_EQ(float_to_e4m3(1.1875F), 0x3a);       // halfway between 1.125 and 1.25: even (1.25)
  EXPECT_EQ(float_to_e4m3(0x1p-10F), 0x00);      // half the smallest subnormal: even (0)
  EXPECT_EQ(float_to_e4m3(3 * 0x1p-10F), 0x02);  // 1.5 x 2^-9: even (2 x 2^-9)
  EXPECT_EQ(float_to_e4m3(1000.0F), 0x7e);       // saturates to 448
  EXPECT_EQ(float_to_e4m3(-1e30F), 0xfe);
  EXPECT_EQ(float_to_e4m3(std::nanf("")), 0x7f);
}

TEST(E4m3Test, DyadicInputsAreExact) {
  std::vector<uint8_t> codes(4096);
  fill_dyadic_e4m3(codes, 7);
  for (size_t i = 0; i < codes.size(); ++i)
    EXPECT_EQ(e4m3_to_float(codes[i]), dyadic_value(7, i)) << i;
}

TEST(Fp8GemmTest, ReferenceMatchesTripleLoopWithScales) {
  const fp8_gemm_wgmma::Problem p{.m = 128, .n = 256, .k = 256};
  std::vector<uint8_t> a(size_t{p.m} * p.k), bt(size_t{p.n} * p.k);
  fill_dyadic_e4m3(a, 1);
  fill_dyadic_e4m3(bt, 2);
  std::vector<float> c(size_t{p.m} * p.n);
  fp8_gemm_wgmma::reference(p, a, bt, 0.5F, 0.25F, c);
  for (uint32_t i = 0; i < p.m; ++i) {
    for (uint32_t j = 0; j < p.n; ++j) {
      double sum = 0;
      for (uint32_t l = 0; l < p.k; ++l)
        sum += double{dyadic_value(1, size_t{i} * p.k + l)} * dyadic_value(2, size_t{j} * p.k + l);
      ASSERT_EQ(c[size_t{i} * p.n + j], sum / 8) << i << "," << j;
    }
  }
}

TEST(Fp8GemmTest, LaunchAndProblemChecks) {
  const Launch l =
      describe_launch("fp8_gemm_wgmma", std::vector<std::string_view>{"512", "512", "256"});
  EXPECT_EQ(l.grid.x, 2U);     // N / 256
  EXPECT_EQ(l.grid.y, 4U);     // M / 128
  EXPECT_EQ(l.cluster.y, 2U);  // two CTAs along M share each B tile
  EXPECT_EQ(l.cluster.x * l.cluster.z, 1U);
  EXPECT_EQ(l.block.x, 384U);  // a loading warpgroup and two computing ones
  EXPECT_EQ(l.dynamic_shared_bytes, 4U * 49152U + 1024U);
  ASSERT_EQ(l.arguments().size(), 8U);
  EXPECT_EQ(l.arguments()[0].kind, ArgKind::kTensorMap);
  EXPECT_EQ(l.arguments()[0].size_bytes, 512U * 256U);  // one byte per element
  EXPECT_EQ(l.arguments()[0].map.box_cols, 128U);
  EXPECT_EQ(l.arguments()[0].map.box_rows, 128U);
  EXPECT_EQ(l.arguments()[1].map.rows, 512U);
  EXPECT_EQ(l.arguments()[1].map.box_rows, 128U);  // each CTA of the pair loads half
  EXPECT_EQ(l.arguments()[3].kind, ArgKind::kF32);
  EXPECT_EQ(l.arguments()[3].value_bits, 0x3f000000U);  // scale_a 0.5
  EXPECT_EQ(l.arguments()[4].value_bits, 0x3e800000U);  // scale_b 0.25
  using Values = std::vector<std::string_view>;
  EXPECT_THROW(describe_launch("fp8_gemm_wgmma", Values{"256", "256", "64"}),
               std::invalid_argument);  // K must be a multiple of 128
  EXPECT_THROW(describe_launch("fp8_gemm_wgmma", Values{"256", "384", "256"}),
               std::invalid_argument);  // N must be a multiple of 256
  EXPECT_THROW(describe_launch("fp8_gemm_wgmma", Values{"384", "256", "256"}),
               std::invalid_argument);  // M must be a multiple of 256
  EXPECT_THROW(describe_launch("fp8_gemm_wgmma", Values{"200"}), std::invalid_argument);
}

}  // namespace
}  // namespace sassim::kernels
