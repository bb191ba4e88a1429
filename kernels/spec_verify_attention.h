// spec_verify_attention: the target model's verification step of speculative decoding
// (Leviathan et al., "Fast Inference from Transformers via Speculative Decoding", 2023):
// each sequence's k + 1 query rows (its last accepted token and k draft tokens) attend
// over the paged KV cache of decode_attention (kernels/decode_attention.h), whose last
// k + 1 positions, context - k - 1 .. context - 1, already hold those tokens' K/V (kv_append
// wrote them), with the causal mask among them: row i sees positions 0 .. context - k - 1 + i.
// Grouped-query heads, head dimension 128, BF16 Q and K/V, FP32 accumulation, splits of
// 512 tokens as flash-decoding.
//   - q [batch][k + 1][heads][128]; k_cache, v_cache, block_tables [batch][max_pages] and
//     context_lens [batch] (each sequence's context including its k + 1 new tokens) as
//     decode_attention's;
//   - grid (splits, kv_heads, batch * (k + 1)), 128 threads: a CTA is decode_attention's
//     CTA for one query row, over the row's own context (context - k + i), so the k + 1
//     rows of a sequence read its pages k + 1 times (from L2 after the first).
//   - writes o_partial [batch * (k + 1)][heads][splits][128] and lse [batch * (k + 1)]
//     [heads][splits] as decode_attention does for batch * (k + 1) sequences, and row_lens
//     [batch][k + 1] int32, each row's context, so that decode_attention_combine over
//     batch * (k + 1) rows with row_lens as its context_lens gives the output
//     [batch][k + 1][heads][128] FP32 (combine_launch).
// Checked as decode_attention, within 1e-4 relative plus 1e-5 absolute against double-
// precision references; row_lens exactly.
// SASS: LDG.E.128.CONSTANT, LDS.128, FFMA, SHFL.BFLY, SHFL.IDX, FMNMX, MUFU.EX2, BAR.SYNC.
#pragma once

#include <span>
#include <vector>

#include "kernels/decode_attention.h"
#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::spec_verify_attention {

namespace da = decode_attention;
inline constexpr std::string_view kKernel = "spec_verify_attention";
inline constexpr uint32_t kThreads = da::kThreads;
inline constexpr uint32_t kHeadDim = da::kHeadDim;
inline constexpr uint32_t kMaxDraft = 15;
inline constexpr double kRelTolerance = da::kRelTolerance;
inline constexpr double kAbsTolerance = da::kAbsTolerance;

struct Problem {
  uint32_t batch = 8;
  uint32_t context = 4096;  // the longest context, the k + 1 new tokens included
  uint32_t draft = 4;       // k, draft tokens per sequence
  uint32_t kv_heads = 8;
  constexpr uint32_t rows() const { return draft + 1; }
  constexpr uint32_t heads() const { return kv_heads * da::kGroup; }
  // The decode_attention problem of the same cache and block tables.
  constexpr da::Problem cache() const { return {batch, context, kv_heads}; }
  // The decode_attention problem whose sequences are the query rows (the combine's).
  constexpr da::Problem row_problem() const { return {batch * rows(), context, kv_heads}; }
  constexpr uint32_t splits() const { return cache().splits(); }
};

// Values: [BATCH [CONTEXT [DRAFT [KV_HEADS]]]]; DRAFT from 1 to 15, CONTEXT at least
// 2 (DRAFT + 1) so that every sequence's context holds its new tokens.
Problem parse_problem(ParamValues values);

constexpr uint64_t q_bytes(const Problem& p) {
  return uint64_t{p.batch} * p.rows() * p.heads() * kHeadDim * 2;
}
constexpr uint64_t partial_count(const Problem& p) {
  return da::partial_count(p.row_problem());
}

constexpr Launch launch(const Problem& p) {
  const da::Problem c = p.cache();
  Launch l{
      .kernel = kKernel, .grid = {p.splits(), p.kv_heads, p.batch * p.rows()}, .block = {kThreads}};
  l.add(buffer_arg("q", q_bytes(p), Access::kRead))
      .add(buffer_arg("k_cache", da::cache_bytes(c), Access::kRead))
      .add(buffer_arg("v_cache", da::cache_bytes(c), Access::kRead))
      .add(buffer_arg("block_tables", uint64_t{p.batch} * c.max_pages() * 4, Access::kRead))
      .add(buffer_arg("context_lens", uint64_t{p.batch} * 4, Access::kRead))
      .add(buffer_arg("o_partial", partial_count(p) * kHeadDim * 4, Access::kWrite))
      .add(buffer_arg("lse", partial_count(p) * 4, Access::kWrite))
      .add(buffer_arg("row_lens", uint64_t{p.batch} * p.rows() * 4, Access::kWrite))
      .add(u32_arg("rows", p.rows()));
  return l;
}

// decode_attention_combine over the query rows: o_partial, lse, row_lens (as its
// context_lens), out [batch][k + 1][heads][128].
constexpr Launch combine_launch(const Problem& p) {
  return da::combine_launch(p.row_problem());
}

// Each sequence's context as decode_attention's (kernels::decode_attention::context_lens).
std::vector<int32_t> context_lens(const Problem& p);
// Row i of sequence b sees context_b - k + i positions: [batch][k + 1].
std::vector<int32_t> row_lens(const Problem& p);

// The split partials of every query row in double precision, rounded to FP32, laid out
// as decode_attention's for batch * (k + 1) sequences.
da::Partials reference_partials(const Problem& p, std::span<const uint16_t> q,
                                std::span<const uint16_t> k_cache,
                                std::span<const uint16_t> v_cache);
// The combine of `partials` (out [batch][k + 1][heads][128]) in double precision.
std::vector<float> reference_combine(const Problem& p, const da::Partials& partials);
// decode_attention_combine of `rows` (its batch: the query rows) over the rows' contexts
// `lens`, in double precision: out [rows.batch][heads][128].
std::vector<float> reference_combine_rows(const da::Problem& rows, const da::Partials& partials,
                                          std::span<const int32_t> lens);
// The draft k whose row_lens `lens` are for a combine of `rows` (batch (k + 1) query rows);
// 0 when they are no verification's.
uint32_t draft_of_row_lens(const da::Problem& rows, std::span<const int32_t> lens);
// softmax(q K^T / sqrt(128)) V of every row over its whole visible context, in double.
std::vector<float> reference_naive(const Problem& p, std::span<const uint16_t> q,
                                   std::span<const uint16_t> k_cache,
                                   std::span<const uint16_t> v_cache);

}  // namespace sassim::kernels::spec_verify_attention
