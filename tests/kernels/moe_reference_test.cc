// The CPU references and problems of the mixture-of-experts kernels (kernels/moe_routing.h,
// moe_gather.h, moe_grouped_gemm.h): top-k with ties, k = 1 and k = experts, the alignment
// of an expert without tokens, of all tokens on one expert and of an expert range, the gathers, the
// grouped GEMM's skipped tiles, and the problems' errors.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/moe_gather.h"
#include "kernels/moe_grouped_gemm.h"
#include "kernels/moe_routing.h"
#include "kernels/suite.h"
#include "kernels/values.h"

namespace sassim::kernels::moe {
namespace {

TEST(MoeTopk, PicksByLogitWithTiesToTheLowerExpert) {
  const Routing r{.tokens = 2, .experts = 4, .top_k = 2, .stride = 6};
  // Token 0: experts 1 and 3 tie for the top; token 1: expert 2, then 0 and 1 tie.
  // The two columns past the experts are ignored (a router GEMM's padded N).
  const std::vector<float> logits = {0.0F,  1.0F,  0.5F, 1.0F,  9.0F, 9.0F,
                                     0.25F, 0.25F, 2.0F, -1.0F, 9.0F, 9.0F};
  const TopK got = topk_reference(r, logits);
  EXPECT_EQ(got.ids, (std::vector<int32_t>{1, 3, 2, 0}));
  EXPECT_FLOAT_EQ(got.weights[0], 0.5F);
  EXPECT_FLOAT_EQ(got.weights[1], 0.5F);
  // Renormalised over the two picks: e^2 / (e^2 + e^0.25).
  const double e = std::exp(2.0), f = std::exp(0.25);
  EXPECT_NEAR(got.weights[2], e / (e + f), 1e-6);
  EXPECT_NEAR(got.weights[3], f / (e + f), 1e-6);
}

TEST(MoeTopk, OneExpertGetsWeightOneAndAllExpertsGetTheSoftmax) {
  const Routing one{.tokens = 1, .experts = 3, .top_k = 1, .stride = 3};
  const std::vector<float> logits = {0.5F, -0.5F, 0.75F};
  const TopK top1 = topk_reference(one, logits);
  EXPECT_EQ(top1.ids, std::vector<int32_t>{2});
  EXPECT_EQ(top1.weights[0], 1.0F);
  const Routing all{.tokens = 1, .experts = 3, .top_k = 3, .stride = 3};
  const TopK top3 = topk_reference(all, logits);
  EXPECT_EQ(top3.ids, (std::vector<int32_t>{2, 0, 1}));
  const double sum = std::exp(0.5) + std::exp(-0.5) + std::exp(0.75);
  EXPECT_NEAR(top3.weights[0], std::exp(0.75) / sum, 1e-6);
  EXPECT_NEAR(top3.weights[2], std::exp(-0.5) / sum, 1e-6);
  EXPECT_NEAR(top3.weights[0] + top3.weights[1] + top3.weights[2], 1.0, 1e-6);
}

TEST(MoeAlign, SegmentsArePaddedPerExpertInPairOrder) {
  // Expert 1 has no pair: no rows, no tile. Expert 0 has 3 pairs, expert 2 has 1.
  const Routing r{.tokens = 2, .experts = 3, .top_k = 2, .stride = 3};
  const std::vector<int32_t> ids = {2, 0, 0, 0};
  const Alignment a = align_reference(r, ids);
  EXPECT_EQ(a.total, 2 * static_cast<int32_t>(kRowTile));
  EXPECT_EQ(r.max_rows(), 4 * kRowTile);  // 4 + 3 x 63 rounded up to whole tiles
  EXPECT_EQ(a.tile_experts, (std::vector<int32_t>{0, 2, -1, -1}));
  EXPECT_EQ(a.sorted_ids[0], 1);
  EXPECT_EQ(a.sorted_ids[1], 2);
  EXPECT_EQ(a.sorted_ids[2], 3);
  EXPECT_EQ(a.sorted_ids[3], 4);  // padding: pairs
  EXPECT_EQ(a.sorted_ids[kRowTile], 0);
  EXPECT_EQ(a.sorted_ids[kRowTile + 1], 4);
  EXPECT_EQ(a.pair_rows, (std::vector<int32_t>{64, 0, 1, 2}));
  for (uint32_t i = 0; i < r.pairs(); ++i)
    EXPECT_EQ(a.sorted_ids[static_cast<size_t>(a.pair_rows[i])], static_cast<int32_t>(i));
}

TEST(MoeAlign, AllPairsOnOneExpert) {
  const Routing r{.tokens = 100, .experts = 8, .top_k = 1, .stride = 8};
  const std::vector<int32_t> ids(100, 5);
  const Alignment a = align_reference(r, ids);
  EXPECT_EQ(a.total, 128);
  EXPECT_EQ(a.tile_experts[0], 5);
  EXPECT_EQ(a.tile_experts[1], 5);
  EXPECT_EQ(a.tile_experts[2], -1);
  for (int32_t i = 0; i < 100; ++i) EXPECT_EQ(a.sorted_ids[static_cast<size_t>(i)], i);
  EXPECT_EQ(a.sorted_ids[100], 100);
}

TEST(MoeAlign, KeepsOnlyTheExpertRange) {
  // Experts 2 and 3 of 5 kept (an expert-parallel rank's): the pairs of experts 0, 1 and 4
  // get no row and pair_rows -1; tiles name the kept experts from 0.
  const Routing r{
      .tokens = 3, .experts = 5, .top_k = 2, .stride = 5, .first_expert = 2, .local_experts = 2};
  const std::vector<int32_t> ids = {3, 0, 2, 4, 3, 1};
  EXPECT_EQ(r.max_rows(), 3 * kRowTile);  // 6 pairs + 2 x 63, rounded up to whole tiles
  const Alignment a = align_reference(r, ids);
  EXPECT_EQ(a.total, 2 * static_cast<int32_t>(kRowTile));
  EXPECT_EQ(a.tile_experts, (std::vector<int32_t>{0, 1, -1}));
  EXPECT_EQ(a.pair_rows, (std::vector<int32_t>{64, -1, 0, -1, 65, -1}));
  EXPECT_EQ(a.sorted_ids[0], 2);
  EXPECT_EQ(a.sorted_ids[1], 6);  // padding: pairs
  EXPECT_EQ(a.sorted_ids[kRowTile], 0);
  EXPECT_EQ(a.sorted_ids[kRowTile + 1], 4);
  EXPECT_EQ(a.sorted_ids[kRowTile + 2], 6);
  // The whole range is the one-GPU alignment.
  Routing all = r;
  all.first_expert = 0;
  all.local_experts = 5;
  Routing plain = r;
  plain.first_expert = 0;
  plain.local_experts = 0;
  const Alignment whole = align_reference(all, ids), one_gpu = align_reference(plain, ids);
  EXPECT_EQ(whole.sorted_ids, one_gpu.sorted_ids);
  EXPECT_EQ(whole.tile_experts, one_gpu.tile_experts);
  EXPECT_EQ(whole.pair_rows, one_gpu.pair_rows);
  EXPECT_EQ(whole.total, one_gpu.total);
  for (const int32_t row : whole.pair_rows) EXPECT_GE(row, 0);
}

TEST(MoeGather, PermuteZeroesPaddingAndKeepsRowsPastTheTotal) {
  const Gather g{.routing = {.tokens = 2, .experts = 2, .top_k = 2, .stride = 2}, .hidden = 8};
  const std::vector<int32_t> ids = {1, 0, 0, 1};
  const Alignment a = align_reference(g.routing, ids);
  std::vector<uint16_t> x(16);
  std::iota(x.begin(), x.end(), uint16_t{1});
  std::vector<uint16_t> rows(size_t{g.routing.max_rows()} * 8, 7);
  permute_reference(g, x, a.sorted_ids, a.total, rows);
  EXPECT_EQ(rows[0], 1);                                 // row 0: pair 1, token 0
  EXPECT_EQ(rows[8], 9);                                 // row 1: pair 2, token 1
  EXPECT_EQ(rows[2 * 8], 0);                             // row 2: padding
  EXPECT_EQ(rows[64 * 8], 1);                            // expert 1's first row: pair 0, token 0
  EXPECT_EQ(rows[static_cast<size_t>(a.total) * 8], 7);  // past the total: untouched
}

TEST(MoeGather, UnpermuteWeightsTheSlotsAndAddsTheResidual) {
  const Gather g{.routing = {.tokens = 1, .experts = 4, .top_k = 2, .stride = 4}, .hidden = 8};
  std::vector<float> c(size_t{g.routing.max_rows()} * 8, 0.0F);
  c[3 * 8] = 2.0F;  // slot 0's row 3
  c[9 * 8] = 4.0F;  // slot 1's row 9
  const std::vector<int32_t> pair_rows = {3, 9};
  const std::vector<float> weights = {0.25F, 0.75F};
  const std::vector<uint16_t> residual(8, float_to_bf16(1.0F));
  std::vector<uint16_t> out(8);
  unpermute_reference(g, c, pair_rows, weights, residual, out);
  EXPECT_EQ(bf16_to_float(out[0]), 1.0F + 0.5F + 3.0F);
  EXPECT_EQ(bf16_to_float(out[1]), 1.0F);
}

TEST(MoeGroupedGemm, EachTileTakesItsExpertAndTilesPastTheTotalAreSkipped) {
  const GroupedGemm g{
      .routing = {.tokens = 1, .experts = 2, .top_k = 1, .stride = 2}, .n = 64, .k = 32};
  const uint32_t rows = g.routing.max_rows();  // 1 + 2 x 63 -> two tiles
  ASSERT_EQ(rows, 2 * kRowTile);
  std::vector<uint16_t> a(size_t{rows} * g.k, float_to_bf16(1.0F));
  std::vector<uint16_t> w(size_t{2} * g.n * g.k, float_to_bf16(1.0F));
  for (size_t i = size_t{g.n} * g.k; i < w.size(); ++i) w[i] = float_to_bf16(0.5F);
  const std::vector<int32_t> tiles = {1, 0};
  std::vector<float> c(size_t{rows} * g.n, -1.0F);
  grouped_gemm_reference(g, a, w, tiles, 64, c);
  EXPECT_EQ(c[0], 16.0F);                 // tile 0, expert 1: 32 x 0.5
  EXPECT_EQ(c[size_t{64} * g.n], -1.0F);  // tile 1 is past the total
  grouped_gemm_reference(g, a, w, tiles, 128, c);
  EXPECT_EQ(c[size_t{64} * g.n], 32.0F);  // tile 1, expert 0: 32 x 1
}

TEST(MoeProblems, LaunchesAndErrors) {
  const Launch topk =
      describe_launch("moe_topk_softmax", std::vector<std::string_view>{"300", "8", "2", "16"});
  EXPECT_EQ(topk.grid.x, 3U);
  EXPECT_EQ(topk.arguments()[0].size_bytes, (299ULL * 16 + 8) * 4);
  const Launch gemm = describe_launch("moe_grouped_gemm",
                                      std::vector<std::string_view>{"32", "8", "2", "256", "128"});
  EXPECT_EQ(gemm.grid.x, 4U);
  EXPECT_EQ(gemm.grid.y, (64U + 8 * 63 + 63) / 64);
  auto message = [](std::string_view kernel, std::vector<std::string_view> values) {
    try {
      describe_launch(kernel, values);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("moe_align", {"4", "8", "9"}),
            "moe_align TOP_K (9) must be at most EXPERTS (8)");
  EXPECT_EQ(message("moe_align", {"4", "65", "2"}), "moe_align EXPERTS (65) must be at most 64");
  EXPECT_EQ(message("moe_topk_softmax", {"4", "8", "2", "4"}),
            "moe_topk_softmax STRIDE (4) must be at least EXPERTS (8)");
  EXPECT_EQ(message("moe_grouped_gemm", {"4", "8", "2", "100"}),
            "moe_grouped_gemm N (100) must be a multiple of 64");
  EXPECT_EQ(message("moe_permute", {"4", "8", "2", "12"}),
            "moe_permute HIDDEN (12) must be a multiple of 8");
  EXPECT_EQ(message("moe_align", {"4", "8", "8"}), "accepted");
  EXPECT_EQ(message("moe_align", {"4", "8", "2", "6", "2"}), "accepted");
  EXPECT_EQ(message("moe_align", {"4", "8", "2", "6", "3"}),
            "moe_align FIRST (6) and COUNT (3): expected 1 or more experts from FIRST, all "
            "below EXPERTS (8)");
  EXPECT_EQ(message("moe_align", {"4", "8", "2", "1", "0"}),
            "moe_align FIRST (1) and COUNT (0): expected 1 or more experts from FIRST, all "
            "below EXPERTS (8)");
  EXPECT_EQ(message("moe_align", {"4", "8", "2", "8"}),
            "moe_align FIRST (8) and COUNT (0): expected 1 or more experts from FIRST, all "
            "below EXPERTS (8)");
  // Experts 2-4 of 8: the shared memory and rows of 3 experts.
  const Launch part =
      describe_launch("moe_align", std::vector<std::string_view>{"300", "8", "2", "2", "3"});
  EXPECT_EQ(part.dynamic_shared_bytes, (129U * 3 + 3 + 1) * 4);
  EXPECT_EQ(part.arguments()[1].size_bytes, (600ULL + 3 * 63 + 63) / 64 * 64 * 4);
}

}  // namespace
}  // namespace sassim::kernels::moe
