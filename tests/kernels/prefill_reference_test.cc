// The CPU references of prefill_attention: the blockwise algorithm the kernel runs
// against plain double-precision attention, the causal mask, grouped-query heads and the
// problem's checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "kernels/prefill_attention.h"
#include "kernels/values.h"

namespace sassim::kernels::prefill_attention {
namespace {

std::vector<uint16_t> bf16_inputs(size_t count, uint64_t seed) {
  std::vector<uint16_t> v(count);
  fill_dyadic_bf16(v, seed);
  return v;
}

struct Inputs {
  std::vector<uint16_t> q, k, v;
  explicit Inputs(const Problem& p)
      : q(bf16_inputs(p.tokens() * p.heads * kHeadDim, 1)),
        k(bf16_inputs(p.tokens() * p.kv_heads * kHeadDim, 2)),
        v(bf16_inputs(p.tokens() * p.kv_heads * kHeadDim, 3)) {}
};

double max_error(const std::vector<float>& got, const std::vector<float>& want) {
  double worst = 0.0;
  for (size_t i = 0; i < want.size(); ++i)
    worst = std::max(worst, double{std::fabs(got[i] - want[i])});
  return worst;
}

TEST(PrefillReferenceTest, BlockwiseMatchesPlainAttention) {
  for (const Problem p :
       {Problem{.batch = 2, .seq_len = 192, .heads = 4, .kv_heads = 2},
        Problem{.batch = 1, .seq_len = 128, .heads = 8, .kv_heads = 2, .causal = 0}}) {
    const Inputs in(p);
    const auto blockwise = reference_blockwise(p, in.q, in.k, in.v);
    const auto naive = reference_naive(p, in.q, in.k, in.v);
    ASSERT_EQ(blockwise.size(), naive.size());
    // P is rounded to BF16 in the blockwise form (2^-9 relative per weight): outputs move
    // by up to 1.3e-3 (early causal rows, few keys); one key left out of 128 would move
    // them by about 4e-3.
    EXPECT_LT(max_error(blockwise, naive), 2e-3);
  }
}

TEST(PrefillReferenceTest, TheFirstTokenAttendsOnlyToItself) {
  // With the mask, query 0 sees key 0 alone: its output is V row 0 of its KV head.
  const Problem p{.batch = 2, .seq_len = 64, .heads = 8, .kv_heads = 2};
  const Inputs in(p);
  const auto o = reference_blockwise(p, in.q, in.k, in.v);
  for (uint32_t b = 0; b < p.batch; ++b) {
    for (uint32_t h = 0; h < p.heads; ++h) {
      const uint64_t token = uint64_t{b} * p.seq_len;
      for (uint32_t d = 0; d < kHeadDim; ++d) {
        const float want = bf16_to_float(in.v[(token * p.kv_heads + h / 4) * kHeadDim + d]);
        ASSERT_EQ(o[(token * p.heads + h) * kHeadDim + d], want) << b << " " << h << " " << d;
      }
    }
  }
}

TEST(PrefillReferenceTest, FutureTokensDoNotChangeThePast) {
  // Changing the K and V of the last 64 tokens changes only their own rows when causal,
  // and every row when not.
  for (const uint32_t causal : {1U, 0U}) {
    const Problem p{.batch = 1, .seq_len = 192, .heads = 4, .kv_heads = 1, .causal = causal};
    Inputs in(p);
    const auto before = reference_blockwise(p, in.q, in.k, in.v);
    for (size_t i = 128 * kHeadDim; i < in.k.size(); ++i) {
      in.k[i] = float_to_bf16(-bf16_to_float(in.k[i]));
      in.v[i] = float_to_bf16(0.5F);
    }
    const auto after = reference_blockwise(p, in.q, in.k, in.v);
    size_t changed_early = 0, changed_late = 0;
    for (size_t i = 0; i < before.size(); ++i) {
      const bool early = i < size_t{128} * p.heads * kHeadDim;
      if (before[i] != after[i]) ++(early ? changed_early : changed_late);
    }
    EXPECT_EQ(changed_early == 0, causal == 1) << "causal " << causal;
    EXPECT_GT(changed_late, 0U);
  }
}

TEST(PrefillReferenceTest, QueryHeadsShareTheirGroupsKvHead) {
  // Query heads 0-3 read KV head 0 and 4-7 KV head 1: with equal queries, heads of one
  // group give equal outputs and heads of different groups do not.
  const Problem p{.batch = 1, .seq_len = 64, .heads = 8, .kv_heads = 2, .causal = 0};
  Inputs in(p);
  for (uint64_t t = 0; t < p.seq_len; ++t) {
    for (uint32_t h = 1; h < p.heads; ++h) {
      for (uint32_t d = 0; d < kHeadDim; ++d) {
        in.q[(t * p.heads + h) * kHeadDim + d] = in.q[(t * p.heads) * kHeadDim + d];
      }
    }
  }
  const auto o = reference_blockwise(p, in.q, in.k, in.v);
  auto head = [&](uint32_t h) {
    return std::vector<float>(o.begin() + h * kHeadDim, o.begin() + (h + 1) * kHeadDim);
  };
  EXPECT_EQ(head(3), head(0));
  EXPECT_EQ(head(7), head(4));
  EXPECT_NE(head(4), head(0));
}

TEST(PrefillReferenceTest, TheSpreadIsTheSizeOfTheTermsAndSetsTheTolerance) {
  // With V >= 0 no term cancels another, so the spread is the output itself; with V's
  // signs mixed it is larger than |o|. The tolerance is abs + rel |o| + spread / 512.
  const Problem p{.batch = 1, .seq_len = 128, .heads = 2, .kv_heads = 1};
  Inputs in(p);
  std::vector<float> spread;
  const auto mixed = reference_blockwise(p, in.q, in.k, in.v, &spread);
  ASSERT_EQ(spread.size(), mixed.size());
  size_t larger = 0;
  for (size_t i = 0; i < mixed.size(); ++i) {
    EXPECT_GE(spread[i], std::fabs(mixed[i]) * (1 - 1e-6)) << i;
    if (spread[i] > 2 * std::fabs(mixed[i])) ++larger;
  }
  EXPECT_GT(larger, mixed.size() / 10);
  const std::vector<double> t = tolerances(mixed, spread);
  const size_t i = 3 * kHeadDim + 5;
  EXPECT_DOUBLE_EQ(t[i], kAbsTolerance + kRelTolerance * std::fabs(mixed[i]) + spread[i] / 512);
  for (uint16_t& v : in.v) v = float_to_bf16(std::fabs(bf16_to_float(v)));
  const auto positive = reference_blockwise(p, in.q, in.k, in.v, &spread);
  for (size_t j = 0; j < positive.size(); ++j)
    ASSERT_NEAR(spread[j], positive[j], 1e-6 * positive[j]) << j;
  EXPECT_THROW(tolerances(positive, std::vector<float>(3)), std::invalid_argument);
}

TEST(PrefillReferenceTest, ProblemsAreChecked) {
  using V = std::vector<std::string_view>;
  const Problem p = parse_problem(V{"2", "128", "16", "4", "0"});
  EXPECT_EQ(p.batch, 2U);
  EXPECT_EQ(p.seq_len, 128U);
  EXPECT_EQ(p.group(), 4U);
  EXPECT_EQ(p.causal, 0U);
  const Launch l = launch(p);
  EXPECT_EQ(l.grid.x, 2U);
  EXPECT_EQ(l.grid.y, 16U);
  EXPECT_EQ(l.grid.z, 2U);
  EXPECT_EQ(l.dynamic_shared_bytes, 80U * 1024);
  auto message = [](V values) {
    try {
      parse_problem(values);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(V{"1", "100"}), "prefill_attention SEQ_LEN (100) must be a multiple of 64");
  EXPECT_EQ(message(V{"1", "64", "6", "4"}), "prefill_attention HEADS (6) must be a multiple of 4");
  EXPECT_EQ(message(V{"1", "64", "4", "4", "2"}),
            "prefill_attention CAUSAL: expected 0 or 1, found 2");
}

}  // namespace
}  // namespace sassim::kernels::prefill_attention
