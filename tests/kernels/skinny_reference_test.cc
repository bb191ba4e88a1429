// The CPU reference and problem of skinny_gemm (kernels/skinny_gemm.h): the lane order
// gives the plain product for dyadic inputs, differs from k order where FP32 rounds, and
// the variants, their rows and the problem's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/skinny_gemm.h"
#include "kernels/suite.h"
#include "kernels/values.h"

namespace sassim::kernels::skinny_gemm {
namespace {

TEST(SkinnyReference, DyadicInputsGiveThePlainProduct) {
  const Problem p{.m = 4, .n = 32, .k = 768};
  std::vector<uint16_t> a(size_t{p.m} * p.k), w(size_t{p.n} * p.k);
  fill_dyadic_bf16(a, 1);
  fill_dyadic_bf16(w, 2);
  std::vector<float> c(size_t{p.m} * p.n);
  reference(p, a, w, c);
  for (uint32_t i = 0; i < p.m; ++i) {
    for (uint32_t j = 0; j < p.n; ++j) {
      double want = 0;
      for (uint32_t x = 0; x < p.k; ++x)
        want += double{bf16_to_float(a[i * p.k + x])} * bf16_to_float(w[j * p.k + x]);
      ASSERT_EQ(c[i * p.n + j], want) << i << " " << j;
    }
  }
}

TEST(SkinnyReference, SumsLaneByLaneThenAcrossLanes) {
  // Lane 0 holds 2^24 and lane 1 holds 1 + 1 (its two steps): in k order the ones vanish
  // into 2^24 (1 rounds away each time), by lanes they are added as 2 first.
  const Problem p{.m = 1, .n = 16, .k = 512};
  std::vector<uint16_t> a(p.k, float_to_bf16(1.0F)), w(size_t{p.n} * p.k, 0);
  w[0] = float_to_bf16(16777216.0F);  // lane 0, step 0
  w[8] = float_to_bf16(1.0F);         // lane 1, step 0
  w[256 + 8] = float_to_bf16(1.0F);   // lane 1, step 1
  std::vector<float> c(p.n);
  reference(p, a, w, c);
  EXPECT_EQ(c[0], 16777218.0F);
  float k_order = 0;
  for (uint32_t x = 0; x < p.k; ++x) k_order += bf16_to_float(a[x]) * bf16_to_float(w[x]);
  EXPECT_EQ(k_order, 16777216.0F);
}

TEST(SkinnyReference, VariantsAndProblems) {
  EXPECT_EQ(rows_of("skinny_gemm_m1"), 1U);
  EXPECT_EQ(rows_of("skinny_gemm_m8"), 8U);
  EXPECT_EQ(rows_of("skinny_gemm_m3"), 0U);
  EXPECT_EQ(kernel_for(1), "skinny_gemm_m1");
  EXPECT_EQ(kernel_for(3), "skinny_gemm_m4");
  EXPECT_EQ(kernel_for(8), "skinny_gemm_m8");
  EXPECT_THROW(kernel_for(9), std::invalid_argument);
  const Launch l = describe_launch("skinny_gemm_m4", std::vector<std::string_view>{"6144", "4096"});
  EXPECT_EQ(l.grid.x, 6144U / 16);
  EXPECT_EQ(l.block.x, 128U);
  EXPECT_EQ(l.arguments()[0].size_bytes, 4ULL * 4096 * 2);
  EXPECT_EQ(l.arguments()[2].size_bytes, 4ULL * 6144 * 4);
  auto message = [](std::vector<std::string_view> values) {
    try {
      parse_problem("skinny_gemm_m2", values);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message({"100"}), "skinny_gemm_m2 N (100) must be a multiple of 16");
  EXPECT_EQ(message({"64", "100"}), "skinny_gemm_m2 K (100) must be a multiple of 256");
  EXPECT_EQ(message({"64", "256"}), "accepted");
}

}  // namespace
}  // namespace sassim::kernels::skinny_gemm
