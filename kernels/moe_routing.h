// The routing of a mixture-of-experts layer (Mixtral style), before the experts' GEMMs:
//   - moe_topk_softmax: per token, softmax over the router's FP32 logits [tokens][stride]
//     (the first `experts` columns: a router GEMM's output, its N padded to the GEMM's
//     tile), the top_k experts by logit, ties to the lower expert index, and their
//     probabilities renormalised over the k (Mixtral: softmax, top-k, divide by the sum).
//     One thread per token (128 per CTA): a pass for the maximum, one for the sum of
//     exp(l - max), then one pass per pick over the experts ranked below the last pick, so
//     no per-thread array is needed. exp is 2^((l - max) log2 e) (MUFU.EX2) and a / b is
//     a (1 / b) (MUFU.RCP), as __expf and __fdividef compute them; the reference takes the
//     same FP32 steps with IEEE exp2 and 1/x: bit-exact against the executed SASS, within
//     a few ulps on a GPU (its MUFU are approximations). Outputs: int32 ids [tokens][k],
//     FP32 weights [tokens][k].
//   - moe_align (vLLM's moe_align_block_size): one CTA of 128 threads, thread t counting
//     the (token, slot) pairs of its contiguous chunk per expert in shared memory
//     [129][experts], prefix sums over the threads and then the experts; each expert's
//     segment of the permuted rows is padded to a multiple of kRowTile (moe_grouped_gemm's
//     rows per CTA). Writes sorted_ids [max_rows] (pair index token * k + slot, in pair
//     order within an expert; `pairs` in padding rows), tile_experts [max_tiles] (the
//     expert of each row tile, -1 past the total), pair_rows [pairs] (the row each pair
//     went to) and total [1] (the padded rows). Integer only: bit-exact. Only the pairs
//     of the experts [first_expert, first_expert + local_experts) are kept (expert
//     parallelism: a rank's own experts, numbered from 0 in tile_experts); the others get
//     pair_rows -1 and no row. The whole range (first 0, all experts) is the one-GPU layer.
// SASS: LDG.E, FMNMX, MUFU.EX2, MUFU.RCP, FSETP, STG.E; LDS, STS, BAR.SYNC.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::moe {

inline constexpr std::string_view kTopkKernel = "moe_topk_softmax";
inline constexpr std::string_view kAlignKernel = "moe_align";
inline constexpr uint32_t kTopkThreads = 128;
inline constexpr uint32_t kAlignThreads = 128;
inline constexpr uint32_t kMaxExperts = 64;  // moe_align's counters: 129 x 64 x 4 = 33 KiB
inline constexpr uint32_t kRowTile = 64;     // moe_grouped_gemm's rows per CTA
inline constexpr uint32_t kMaxPairs = 1U << 22;
inline constexpr float kLog2e = 1.44269504088896340736F;

// Tokens routed to top_k of `experts` experts.
struct Routing {
  uint32_t tokens = 32;
  uint32_t experts = 8;
  uint32_t top_k = 2;
  uint32_t stride = 8;  // moe_topk_softmax: logits from one token to the next (>= experts)
  // moe_align: the experts whose pairs it keeps, [first_expert, first_expert +
  // local_experts); local_experts 0: every expert.
  uint32_t first_expert = 0;
  uint32_t local_experts = 0;

  constexpr uint32_t pairs() const { return tokens * top_k; }
  constexpr uint32_t local() const { return local_experts == 0 ? experts : local_experts; }
  // Rows of the permuted order in the worst case: every kept expert's segment padded by
  // kRowTile - 1, rounded up to a whole tile.
  constexpr uint32_t max_rows() const {
    return ceil_div(uint64_t{pairs()} + uint64_t{local()} * (kRowTile - 1), kRowTile) * kRowTile;
  }
  constexpr uint32_t max_tiles() const { return max_rows() / kRowTile; }
};

// Values: TOKENS EXPERTS TOP_K, then (moe_topk_softmax) [STRIDE], (moe_align) [FIRST
// COUNT], the experts kept (default all), or `extra` more values that the caller parses;
// experts 1 to 64, top_k 1 to experts, tokens x top_k at most 2^22, FIRST + COUNT at most
// EXPERTS and COUNT at least 1.
Routing parse_routing(ParamValues values, std::string_view kernel, size_t extra = 0);

inline constexpr uint32_t align_shared_bytes(const Routing& r) {
  return ((kAlignThreads + 1) * r.local() + r.local() + 1) * 4;
}

constexpr Launch topk_launch(const Routing& r) {
  Launch l{
      .kernel = kTopkKernel, .grid = {ceil_div(r.tokens, kTopkThreads)}, .block = {kTopkThreads}};
  l.add(buffer_arg("logits", (uint64_t{r.tokens - 1} * r.stride + r.experts) * 4, Access::kRead))
      .add(buffer_arg("ids", uint64_t{r.pairs()} * 4, Access::kWrite))
      .add(buffer_arg("weights", uint64_t{r.pairs()} * 4, Access::kWrite))
      .add(u32_arg("tokens", r.tokens))
      .add(u32_arg("experts", r.experts))
      .add(u32_arg("top_k", r.top_k))
      .add(u32_arg("stride", r.stride));
  return l;
}

constexpr Launch align_launch(const Routing& r) {
  Launch l{.kernel = kAlignKernel,
           .grid = {1},
           .block = {kAlignThreads},
           .dynamic_shared_bytes = align_shared_bytes(r)};
  l.add(buffer_arg("ids", uint64_t{r.pairs()} * 4, Access::kRead))
      .add(buffer_arg("sorted_ids", uint64_t{r.max_rows()} * 4, Access::kWrite))
      .add(buffer_arg("tile_experts", uint64_t{r.max_tiles()} * 4, Access::kWrite))
      .add(buffer_arg("pair_rows", uint64_t{r.pairs()} * 4, Access::kWrite))
      .add(buffer_arg("total", 4, Access::kWrite))
      .add(u32_arg("pairs", r.pairs()))
      .add(u32_arg("local_experts", r.local()))
      .add(u32_arg("max_rows", r.max_rows()))
      .add(u32_arg("first_expert", r.first_expert));
  return l;
}

struct TopK {
  std::vector<int32_t> ids;    // [tokens][top_k]
  std::vector<float> weights;  // [tokens][top_k]
};
// moe_topk_softmax's outputs for `logits` ([tokens][stride] FP32).
TopK topk_reference(const Routing& r, std::span<const float> logits);

struct Alignment {
  std::vector<int32_t> sorted_ids;    // [max_rows]
  std::vector<int32_t> tile_experts;  // [max_tiles]
  std::vector<int32_t> pair_rows;     // [pairs]
  int32_t total = 0;                  // rows used: the padded segments' sum
};
// moe_align's outputs for the experts `ids` ([pairs]), keeping r's expert range.
Alignment align_reference(const Routing& r, std::span<const int32_t> ids);

// The suite's routing example: topk_reference of FP32 dyadic logits of seed 1 (ties are
// frequent: the values are multiples of 1/8).
TopK example_topk(const Routing& r);

}  // namespace sassim::kernels::moe
