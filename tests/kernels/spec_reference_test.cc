// The CPU references of speculative decoding's kernels: spec_verify_attention's partials
// combine to its whole-context softmax, its last row is decode attention, the causal mask
// hides later draft tokens; spec_argmax and spec_accept on hand-made cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "kernels/decode_attention.h"
#include "kernels/spec_accept.h"
#include "kernels/spec_verify_attention.h"
#include "kernels/values.h"

namespace sassim::kernels {
namespace {

namespace sv = spec_verify_attention;
namespace sa = spec_accept;

struct Inputs {
  std::vector<uint16_t> q, k, v;
  explicit Inputs(const sv::Problem& p)
      : q(sv::q_bytes(p) / 2),
        k(decode_attention::cache_bytes(p.cache()) / 2),
        v(decode_attention::cache_bytes(p.cache()) / 2) {
    fill_dyadic_bf16(q, 1);
    fill_dyadic_bf16(k, 2);
    fill_dyadic_bf16(v, 3);
  }
};

void expect_close(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], sv::kRelTolerance * std::fabs(want[i]) + sv::kAbsTolerance) << i;
  }
}

TEST(SpecVerifyReference, RowsSeeTheContextUpToTheirOwnToken) {
  const sv::Problem p{.batch = 3, .context = 600, .draft = 3, .kv_heads = 1};
  const std::vector<int32_t> lens = sv::context_lens(p);
  const std::vector<int32_t> rows = sv::row_lens(p);
  ASSERT_EQ(rows.size(), 12U);
  EXPECT_EQ(lens[1], 513);  // 600 - 389 % 151: the sequence's rows straddle a split
  for (uint32_t b = 0; b < 3; ++b) {
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(rows[b * 4 + i], lens[b] - 3 + int32_t(i));
  }
}

TEST(SpecVerifyReference, PartialsCombineToTheWholeContext) {
  // Contexts across two splits (600, 513, 577) and, with k = 1, inside one (40, 37).
  for (const sv::Problem p : {sv::Problem{.batch = 3, .context = 600, .draft = 3, .kv_heads = 1},
                              sv::Problem{.batch = 2, .context = 40, .draft = 1, .kv_heads = 2}}) {
    const Inputs in(p);
    const auto partials = sv::reference_partials(p, in.q, in.k, in.v);
    expect_close(sv::reference_combine(p, partials), sv::reference_naive(p, in.q, in.k, in.v));
  }
}

TEST(SpecVerifyReference, TheLastRowIsDecodeAttention) {
  const sv::Problem p{.batch = 2, .context = 530, .draft = 2, .kv_heads = 1};
  const Inputs in(p);
  const uint32_t row = p.heads() * sv::kHeadDim;  // one row's query or output
  std::vector<uint16_t> last(size_t{p.batch} * row);
  for (uint32_t b = 0; b < p.batch; ++b) {
    const auto from = static_cast<std::ptrdiff_t>((size_t{b} * p.rows() + p.draft) * row);
    std::copy_n(in.q.begin() + from, row, last.begin() + static_cast<std::ptrdiff_t>(b * row));
  }
  const std::vector<float> decode = decode_attention::reference_naive(p.cache(), last, in.k, in.v);
  const std::vector<float> verify = sv::reference_naive(p, in.q, in.k, in.v);
  for (uint32_t b = 0; b < p.batch; ++b) {
    for (uint32_t i = 0; i < row; ++i) {
      EXPECT_EQ(verify[(size_t{b} * p.rows() + p.draft) * row + i], decode[size_t{b} * row + i]);
    }
  }
}

TEST(SpecVerifyReference, TheCausalMaskHidesLaterDraftTokens) {
  // Changing V at the last position (the last draft token) moves only the last row.
  const sv::Problem p{.batch = 1, .context = 48, .draft = 2, .kv_heads = 1};
  Inputs in(p);
  const std::vector<float> before = sv::reference_naive(p, in.q, in.k, in.v);
  const uint32_t last = p.context - 1;
  const auto page = static_cast<size_t>(decode_attention::block_tables(p.cache())[last / 16]);
  for (uint32_t d = 0; d < sv::kHeadDim; ++d)
    in.v[(page * 16 + last % 16) * sv::kHeadDim + d] = float_to_bf16(4.0F);
  const std::vector<float> after = sv::reference_naive(p, in.q, in.k, in.v);
  const size_t row = size_t{p.heads()} * sv::kHeadDim;
  for (size_t i = 0; i < 2 * row; ++i) EXPECT_EQ(after[i], before[i]) << i;
  size_t moved = 0;
  for (size_t i = 2 * row; i < 3 * row; ++i) moved += static_cast<size_t>(after[i] > before[i]);
  EXPECT_EQ(moved, row);
}

TEST(SpecVerifyReference, ValuesAreChecked) {
  const std::vector<std::string_view> too_long = {"2", "512", "16"};
  EXPECT_THROW(sv::parse_problem(too_long), std::invalid_argument);
  const std::vector<std::string_view> too_short = {"2", "7", "3"};
  EXPECT_THROW(sv::parse_problem(too_short), std::invalid_argument);
  const std::vector<std::string_view> ok = {"2", "8", "3"};
  EXPECT_EQ(sv::parse_problem(ok).rows(), 4U);
}

TEST(SpecArgmaxReference, TheFirstLargestWinsAndNanNever) {
  const sa::ArgmaxProblem p{.rows = 3, .vocab = 5};
  const float nan = std::nanf("");
  const std::vector<float> logits = {
      0.5F,      2.0F,      -1.0F, 2.0F,      1.0F,       // tie: the first
      nan,       -3.0F,     nan,   -2.0F,     -INFINITY,  // NaNs lose
      -INFINITY, -INFINITY, nan,   -INFINITY, nan};
  std::vector<int32_t> argmax(3);
  sa::reference_argmax(p, logits, argmax);
  EXPECT_EQ(argmax, (std::vector<int32_t>{1, 3, 0}));
}

TEST(SpecAcceptReference, TheLongestMatchingPrefixAndTheTargetsNextToken) {
  const sa::AcceptProblem p{.batch = 3, .draft = 3};
  const std::vector<int32_t> target = {10, 11, 12, 13,   // all accepted
                                       20, 21, 22, 23,   // none
                                       30, 31, 32, 33};  // one, a later match ignored
  const std::vector<int32_t> draft = {10, 11, 12, 7, 21, 22, 30, 9, 32};
  std::vector<int32_t> n(3), tokens(12);
  sa::reference_accept(p, target, draft, n, tokens);
  EXPECT_EQ(n, (std::vector<int32_t>{3, 0, 1}));
  EXPECT_EQ(tokens, (std::vector<int32_t>{10, 11, 12, 13, 20, -1, -1, -1, 30, 31, -1, -1}));
}

TEST(SpecAcceptReference, OneDraftToken) {
  const sa::AcceptProblem p{.batch = 2, .draft = 1};
  const std::vector<int32_t> target = {5, 6, 7, 8}, draft = {5, 8};
  std::vector<int32_t> n(2), tokens(4);
  sa::reference_accept(p, target, draft, n, tokens);
  EXPECT_EQ(n, (std::vector<int32_t>{1, 0}));
  EXPECT_EQ(tokens, (std::vector<int32_t>{5, 6, 7, -1}));
}

TEST(SpecAcceptReference, SuiteInputsAcceptBModuloKPlusOne) {
  const sa::AcceptProblem p{.batch = 11, .draft = 4};
  std::vector<int32_t> n(p.batch), tokens(size_t{p.batch} * p.rows());
  sa::reference_accept(p, sa::suite_targets(p), sa::suite_drafts(p), n, tokens);
  for (uint32_t b = 0; b < p.batch; ++b) EXPECT_EQ(n[b], int32_t(b % 5)) << b;
}

}  // namespace
}  // namespace sassim::kernels
