// The CPU references of the suite kernels against straightforward loops, on small
// problems. The references are what SASS executed on the CPU is checked against.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "kernels/bf16_gemm_wgmma.h"
#include "kernels/flash_attention.h"
#include "kernels/hgemm_mma.h"
#include "kernels/pointer_chase.h"
#include "kernels/reduction.h"
#include "kernels/saxpy.h"
#include "kernels/sgemm.h"
#include "kernels/stream.h"
#include "kernels/transpose.h"
#include "kernels/values.h"
#include "kernels/vector_add.h"

namespace sassim::kernels {
namespace {

std::vector<float> dyadic(size_t count, uint64_t seed) {
  std::vector<float> values(count);
  fill_dyadic(values, seed);
  return values;
}

TEST(ReferenceTest, ElementwiseKernels) {
  const auto a = dyadic(1000, 1);
  const auto b = dyadic(1000, 2);
  std::vector<float> c(1000);
  vector_add::reference(a, b, c);
  for (size_t i = 0; i < c.size(); ++i) EXPECT_EQ(c[i], a[i] + b[i]);

  std::vector<float> y = b;
  saxpy::reference(a, y, 1.5F);
  for (size_t i = 0; i < y.size(); ++i) EXPECT_EQ(y[i], 1.5F * a[i] + b[i]);  // exact: dyadic

  stream::copy_reference(a, c);
  EXPECT_EQ(c, a);
  std::vector<float> out(1000);
  stream::triad_reference(out, a, b, 3.0F);
  for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], a[i] + 3.0F * b[i]);
}

TEST(ReferenceTest, ReductionPartialsCoverEveryElementOnce) {
  const reduction::Problem p{.n = 5000, .ctas = 3};
  // All ones: a CTA's partial counts the elements it owns.
  const std::vector<float> ones(p.n, 1.0F);
  const auto counts = reduction::reference_partials(p, ones);
  ASSERT_EQ(counts.size(), 3U);
  std::vector<float> expected(3, 0.0F);
  for (uint32_t i = 0; i < p.n; ++i) expected[(i / reduction::kBlockThreads) % 3] += 1.0F;
  EXPECT_EQ(counts, expected);
  // Dyadic values: every partial sum is exact, so the total is too.
  const auto input = dyadic(p.n, 7);
  double total = 0;
  for (float partial : reduction::reference_partials(p, input)) total += partial;
  EXPECT_EQ(total, reduction::exact_sum(input));
}

TEST(ReferenceTest, ReductionFollowsTheShuffleTree) {
  // Lanes 0..3 hold 1e8, 1, -1e8, 1. The shuffle tree adds lane 2 to lane 0 and lane 3
  // to lane 1 (offset 2), then lane 1 to lane 0: 0 + 2 = 2. Adding left to right in
  // float would lose the first 1 against 1e8 and give 1.
  const reduction::Problem p{.n = 32, .ctas = 1};
  std::vector<float> input(32, 0.0F);
  input[0] = 1e8F;
  input[1] = 1.0F;
  input[2] = -1e8F;
  input[3] = 1.0F;
  EXPECT_EQ(reduction::reference_partials(p, input)[0], 2.0F);
  float left_to_right = 0.0F;
  for (float v : input) left_to_right += v;
  EXPECT_EQ(left_to_right, 1.0F);
}

TEST(ReferenceTest, Transpose) {
  const transpose::Problem p{.rows = 64, .cols = 96};
  const auto in = dyadic(size_t{p.rows} * p.cols, 3);
  std::vector<float> out(in.size()), back(in.size());
  transpose::reference(p, in, out);
  for (uint32_t r = 0; r < p.rows; ++r) {
    for (uint32_t c = 0; c < p.cols; ++c)
      EXPECT_EQ(out[size_t{c} * p.rows + r], in[size_t{r} * p.cols + c]);
  }
  transpose::reference({.rows = p.cols, .cols = p.rows}, out, back);
  EXPECT_EQ(back, in);
}

TEST(ReferenceTest, PointerChaseChain) {
  const pointer_chase::Problem p{.footprint_bytes = 4096, .stride_bytes = 128, .steps = 100};
  const auto chain = pointer_chase::build_chain(p);
  ASSERT_EQ(chain.size(), 1024U);
  EXPECT_EQ(chain[0], 32U);
  EXPECT_EQ(chain[992], 0U);
  EXPECT_EQ(pointer_chase::final_index(chain, 32), 0U);  // one lap: 4096 / 128 lines
  EXPECT_EQ(pointer_chase::final_index(chain, 35), 96U);
}

TEST(ReferenceTest, SgemmMatchesTripleLoop) {
  const sgemm::Problem p{.m = 64, .n = 128, .k = 48};
  const auto a = dyadic(size_t{p.m} * p.k, 1);
  const auto b = dyadic(size_t{p.k} * p.n, 2);
  auto c = dyadic(size_t{p.m} * p.n, 3);
  const auto c0 = c;
  sgemm::reference(p, a, b, c, 0.5F, 0.25F);
  for (uint32_t i = 0; i < p.m; ++i) {
    for (uint32_t j = 0; j < p.n; ++j) {
      double sum = 0;
      for (uint32_t l = 0; l < p.k; ++l) sum += double{a[i * p.k + l]} * b[l * p.n + j];
      // Dyadic inputs: every step is exact, so the result is exactly the real value.
      EXPECT_EQ(c[i * p.n + j], 0.5 * sum + 0.25 * c0[i * p.n + j]) << i << "," << j;
    }
  }
}

template <typename Reference>
void check_tensor_gemm(Reference reference, float (*to_float)(uint16_t),
                       void (*fill)(std::span<uint16_t>, uint64_t)) {
  const uint32_t m = 128, n = 128, k = 64;
  std::vector<uint16_t> a(m * k), bt(n * k);
  fill(a, 1);
  fill(bt, 2);
  std::vector<float> c(m * n);
  reference(m, n, k, a, bt, c);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      double sum = 0;
      for (uint32_t l = 0; l < k; ++l)
        sum += double{to_float(a[i * k + l])} * to_float(bt[j * k + l]);
      ASSERT_EQ(c[i * n + j], sum) << i << "," << j;
    }
  }
}

TEST(ReferenceTest, TensorCoreGemmsMatchTripleLoop) {
  check_tensor_gemm([](uint32_t m, uint32_t n, uint32_t k, const auto& a, const auto& bt,
                       auto& c) { hgemm_mma::reference({.m = m, .n = n, .k = k}, a, bt, c); },
                    half_to_float, fill_dyadic_half);
  check_tensor_gemm([](uint32_t m, uint32_t n, uint32_t k, const auto& a, const auto& bt,
                       auto& c) { bf16_gemm_wgmma::reference({.m = m, .n = n, .k = k}, a, bt, c); },
                    bf16_to_float, fill_dyadic_bf16);
}

TEST(ReferenceTest, FlashAttentionMatchesNaiveSoftmax) {
  const flash_attention::Problem p{.batch_heads = 2, .seq_len = 192};
  const size_t count = size_t{p.batch_heads} * p.seq_len * flash_attention::kHeadDim;
  std::vector<uint16_t> q(count), k(count), v(count);
  fill_dyadic_half(q, 1);
  fill_dyadic_half(k, 2);
  fill_dyadic_half(v, 3);
  std::vector<float> blockwise(count), naive(count);
  flash_attention::reference_blockwise(p, q, k, v, blockwise);
  flash_attention::reference_naive(p, q, k, v, naive);
  double worst = 0;
  for (size_t i = 0; i < count; ++i)
    worst = std::max(worst, std::fabs(double{blockwise[i]} - naive[i]));
  // P rounded to FP16 (relative error 2^-11) over outputs of magnitude < 1.
  EXPECT_LT(worst, 2e-3);
  EXPECT_GT(worst, 0.0);  // the FP16 rounding of P is really there
}

TEST(ValuesTest, DyadicInputsAreDeterministicAndInRange) {
  EXPECT_EQ(dyadic_value(1, 0), dyadic_value(1, 0));
  std::set<float> seen;
  for (uint64_t i = 0; i < 2000; ++i) {
    const float v = dyadic_value(5, i);
    EXPECT_LE(std::fabs(v), 1.0F);
    EXPECT_EQ(v * 8.0F, std::round(v * 8.0F));
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 17U);
}

TEST(ValuesTest, HalfConversions) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const auto h = static_cast<uint16_t>(bits);
    if ((h & 0x7c00U) == 0x7c00U && (h & 0x3ffU) != 0) continue;  // NaN
    ASSERT_EQ(float_to_half(half_to_float(h)), h) << std::hex << bits;
  }
  EXPECT_EQ(half_to_float(0x3c00), 1.0F);
  EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0F, -24));
  EXPECT_EQ(float_to_half(1.0F + std::ldexp(1.0F, -11)), 0x3c00);      // tie to even
  EXPECT_EQ(float_to_half(1.0F + 3 * std::ldexp(1.0F, -11)), 0x3c02);  // tie to even, up
  EXPECT_EQ(float_to_half(70000.0F), 0x7c00);
  EXPECT_EQ(float_to_half(-2.0F), 0xc000);
}

TEST(ValuesTest, Bf16Conversions) {
  EXPECT_EQ(float_to_bf16(1.0F), 0x3f80);
  EXPECT_EQ(bf16_to_float(0x3f80), 1.0F);
  EXPECT_EQ(float_to_bf16(1.0F + std::ldexp(1.0F, -8)), 0x3f80);      // tie to even
  EXPECT_EQ(float_to_bf16(1.0F + 3 * std::ldexp(1.0F, -8)), 0x3f82);  // tie to even, up
  EXPECT_EQ(float_to_bf16(-0.375F), 0xbec0);
}

}  // namespace
}  // namespace sassim::kernels
