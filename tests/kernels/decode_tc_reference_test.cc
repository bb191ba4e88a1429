// decode_attention_tc's reference (kernels/decode_attention_tc.h) against decode_attention's
// double-precision one: the same attention up to the BF16 rounding of the weights in P V.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/decode_attention.h"
#include "kernels/decode_attention_tc.h"
#include "kernels/values.h"

namespace sassim::kernels {
namespace {

namespace da = decode_attention;

std::vector<uint16_t> bf16_inputs(size_t count, uint64_t seed) {
  std::vector<uint16_t> v(count);
  fill_dyadic_bf16(v, seed);
  return v;
}

struct Inputs {
  da::Problem p;
  std::vector<uint16_t> q, k, v;
  explicit Inputs(da::Problem problem)
      : p(problem),
        q(bf16_inputs(size_t{p.batch} * p.heads() * da::kHeadDim, 1)),
        k(bf16_inputs(da::cache_bytes(p) / 2, 2)),
        v(bf16_inputs(da::cache_bytes(p) / 2, 3)) {}
};

double largest_gap(const std::vector<float>& a, const std::vector<float>& b) {
  double gap = 0;
  for (size_t i = 0; i < a.size(); ++i) gap = std::max(gap, std::fabs(double{a[i]} - b[i]));
  return gap;
}

// Contexts 1100, 987 and 874 over 2 KV heads: full, partial and empty splits.
TEST(DecodeTcReference, IsTheAttentionUpToBf16Weights) {
  const Inputs in(da::Problem{.batch = 3, .context = 1100, .kv_heads = 2});
  const da::Partials exact = da::reference_partials(in.p, in.q, in.k, in.v);
  const da::Partials tc = decode_attention_tc::reference_partials(in.p, in.q, in.k, in.v);
  ASSERT_EQ(tc.o.size(), exact.o.size());
  // The sum l takes the FP32 weights: the log-sum-exp is the exact one but for FP32 scores.
  EXPECT_LT(largest_gap(tc.lse, exact.lse), 1e-5);
  // Outputs are averages of V (multiples of 1/8 in [-1, 1]); BF16 weights (8 bits) move
  // them by well under 2^-8, yet by more than the FP32 kernels' tolerance somewhere.
  const double gap = largest_gap(tc.o, exact.o);
  EXPECT_LT(gap, 1.0 / 256);
  EXPECT_GT(gap, da::kAbsTolerance);
  // Splits past a context stay zero, as decode_attention's.
  for (size_t i = 0; i < exact.o.size(); ++i) {
    if (exact.o[i] == 0.0F) EXPECT_EQ(tc.o[i], 0.0F) << i;
  }
  // Combined, the splits give the whole context's attention to the same precision.
  EXPECT_LT(
      largest_gap(da::reference_combine(in.p, tc), da::reference_naive(in.p, in.q, in.k, in.v)),
      1.0 / 256);
}

TEST(DecodeTcReference, LaunchIsDecodeAttentionsUnderItsOwnName) {
  const da::Problem p{.batch = 2, .context = 600, .kv_heads = 1};
  const Launch tc = decode_attention_tc::launch(p), plain = da::launch(p);
  EXPECT_EQ(tc.kernel, "decode_attention_tc");
  EXPECT_EQ(tc.grid.count(), plain.grid.count());
  EXPECT_EQ(tc.grid.x, plain.grid.x);
  EXPECT_EQ(tc.block.count(), plain.block.count());
  EXPECT_EQ(tc.arguments().size(), plain.arguments().size());
}

}  // namespace
}  // namespace sassim::kernels
