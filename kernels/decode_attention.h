// decode_attention and decode_attention_combine: flash-decoding (Dao et al., "Flash-
// Decoding for long-context inference", 2023) over a paged KV cache, one query token per
// sequence, grouped-query attention with 4 query heads per KV head (Llama 3 8B: 32 and
// 8), head dimension 128, BF16 Q and K/V, FP32 accumulation.
//   - q [batch][heads][128]; k_cache, v_cache [num_pages][kv_heads][16][128] (the layout
//     kv_append writes); block_tables [batch][max_pages] int32, the pages of each sequence
//     in order (max_pages = splits * 32); context_lens [batch] int32;
//   - decode_attention: grid (splits, kv_heads, batch), 128 threads. A CTA takes one
//     split of 512 tokens (32 pages) of one sequence and KV head, with its 4 query heads,
//     so every K/V byte is read once for all of them. The 4 query rows, scaled by
//     1/sqrt(128) * log2(e) into the exp2 domain, wait in shared memory. Warp w takes
//     pages w, w + 4, ... (their block-table entries loaded up front, one per lane); per
//     page lane (half, token) = (lane / 16, lane % 16) loads dimensions 64 half ..
//     64 half + 63 of its token's K row (8 16-byte loads) and scores it against the 4
//     queries (LDS.128 broadcasts), one shuffle joins the halves; the page max per head
//     takes 4 more, then an online softmax keeps a running max m, sum l and output per
//     head. For P V each lane loads chunk lane % 16 of V rows 2j + half (512 contiguous
//     bytes per load) and takes the weights of those tokens from the lanes that scored
//     them (SHFL.IDX). The warps merge through shared memory; the CTA writes the split's
//     normalised output o_partial [batch][heads][splits][128] FP32 and its log-sum-exp
//     lse [batch][heads][splits] = m + log2(l) (log2 domain). A split past the context
//     writes nothing.
//   - decode_attention_combine: grid (heads, batch), 128 threads (one per dimension):
//     out = sum_s 2^(lse_s - M) o_s / sum_s 2^(lse_s - M) over the splits the context
//     covers, M their max; out [batch][heads][128] FP32.
// The references are in double precision. The kernels' scores are exact but for the FP32
// rounding of the scaled query (Q and K are multiples of 1/8, their products and sums
// exact in FP32); exp2 and the FP32 sums are not, so the kernels are checked within 1e-4
// relative plus 1e-5 absolute (one token missed out of a split of 512 moves an output by
// about 2e-3).
// SASS: LDG.E.128.CONSTANT, LDS.128, FFMA, SHFL.BFLY, SHFL.IDX, FMNMX, MUFU.EX2, BAR.SYNC.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::decode_attention {

inline constexpr std::string_view kKernel = "decode_attention";
inline constexpr std::string_view kCombineKernel = "decode_attention_combine";
inline constexpr uint32_t kThreads = 128;
inline constexpr uint32_t kWarps = kThreads / 32;
inline constexpr uint32_t kHeadDim = 128;
inline constexpr uint32_t kGroup = 4;        // query heads per KV head
inline constexpr uint32_t kPageSize = 16;    // tokens per page
inline constexpr uint32_t kSplitPages = 32;  // pages per split
inline constexpr uint32_t kSplitTokens = kSplitPages * kPageSize;
// 1/sqrt(128) * log2(e): scores scaled into the exp2 domain with one multiply.
inline constexpr float kScaleLog2 = 0.08838834764831845F * 1.44269504088896340736F;
inline constexpr double kRelTolerance = 1e-4;
inline constexpr double kAbsTolerance = 1e-5;

struct Problem {
  uint32_t batch = 8;
  uint32_t context = 4096;  // the longest context; sequence b has context - (b * 389) % context / 4
  uint32_t kv_heads = 8;
  constexpr uint32_t heads() const { return kv_heads * kGroup; }
  constexpr uint32_t splits() const { return ceil_div(context, kSplitTokens); }
  constexpr uint32_t max_pages() const { return splits() * kSplitPages; }
  // Every sequence's pages, allocated from one pool (pages past a context stay unused).
  constexpr uint32_t num_pages() const { return batch * max_pages(); }
};

// Values: [BATCH [CONTEXT [KV_HEADS]]].
Problem parse_problem(ParamValues values);

constexpr uint64_t cache_bytes(const Problem& p) {
  return uint64_t{p.num_pages()} * p.kv_heads * kPageSize * kHeadDim * 2;
}
constexpr uint64_t partial_count(const Problem& p) {
  return uint64_t{p.batch} * p.heads() * p.splits();
}

constexpr Launch launch(const Problem& p) {
  Launch l{.kernel = kKernel, .grid = {p.splits(), p.kv_heads, p.batch}, .block = {kThreads}};
  l.add(buffer_arg("q", uint64_t{p.batch} * p.heads() * kHeadDim * 2, Access::kRead))
      .add(buffer_arg("k_cache", cache_bytes(p), Access::kRead))
      .add(buffer_arg("v_cache", cache_bytes(p), Access::kRead))
      .add(buffer_arg("block_tables", uint64_t{p.batch} * p.max_pages() * 4, Access::kRead))
      .add(buffer_arg("context_lens", uint64_t{p.batch} * 4, Access::kRead))
      .add(buffer_arg("o_partial", partial_count(p) * kHeadDim * 4, Access::kWrite))
      .add(buffer_arg("lse", partial_count(p) * 4, Access::kWrite));
  return l;
}

constexpr Launch combine_launch(const Problem& p) {
  Launch l{.kernel = kCombineKernel, .grid = {p.heads(), p.batch}, .block = {kThreads}};
  l.add(buffer_arg("o_partial", partial_count(p) * kHeadDim * 4, Access::kRead))
      .add(buffer_arg("lse", partial_count(p) * 4, Access::kRead))
      .add(buffer_arg("context_lens", uint64_t{p.batch} * 4, Access::kRead))
      .add(buffer_arg("out", uint64_t{p.batch} * p.heads() * kHeadDim * 4, Access::kWrite))
      .add(u32_arg("splits", p.splits()));
  return l;
}

// Sequence b's context: context - (b * 389) % (context / 4 + 1), from 3/4 of the
// longest to the longest, so that sequences end in different pages and splits.
std::vector<int32_t> context_lens(const Problem& p);
// Sequence b's page i: (b * max_pages + i) * stride mod num_pages, stride coprime to it,
// so that a sequence's pages are scattered over the pool.
std::vector<int32_t> block_tables(const Problem& p);

// K/V bytes the decode kernel reads: every token of every context, K and V, all heads.
uint64_t kv_bytes_read(const Problem& p);

// The references' view of the paged cache: query row `row` (rows_per_sequence rows per
// sequence, row / rows_per_sequence its sequence) against its sequence's tokens, in double.
struct PagedReference {
  const Problem& p;  // the cache's sequences and pages
  std::span<const uint16_t> q, k, v;
  uint32_t rows_per_sequence = 1;
  std::vector<int32_t> tables = block_tables(p);

  // Offset of a token's K/V row (head dimension 128) of head `head`'s KV head.
  size_t cache_row(uint32_t seq, uint32_t head, uint32_t token) const;
  // Row `row`'s head dotted with a token's K row (exact: the inputs are multiples of 1/8).
  double dot(uint32_t row, uint32_t head, uint32_t token) const;
  // The scaled score of row `row`'s head against a token, in the exp2 domain.
  double score(uint32_t row, uint32_t head, uint32_t token) const;
  // softmax over [begin, end) times V: the normalised output and the log2-sum-exp2.
  double attend(uint32_t row, uint32_t head, uint32_t begin, uint32_t end, double* out) const;
};

struct Partials {
  std::vector<float> o;    // [batch][heads][splits][128]; splits past a context are 0
  std::vector<float> lse;  // [batch][heads][splits]
};

// The split partials in double precision, rounded to FP32.
Partials reference_partials(const Problem& p, std::span<const uint16_t> q,
                            std::span<const uint16_t> k_cache, std::span<const uint16_t> v_cache);
// The combine of `partials` in double precision: out [batch][heads][128].
std::vector<float> reference_combine(const Problem& p, const Partials& partials);
// softmax(q K^T / sqrt(128)) V over each whole context in double precision.
std::vector<float> reference_naive(const Problem& p, std::span<const uint16_t> q,
                                   std::span<const uint16_t> k_cache,
                                   std::span<const uint16_t> v_cache);

}  // namespace sassim::kernels::decode_attention
