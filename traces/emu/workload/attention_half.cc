#include "traces/emu/workload/attention_half.h"

#include <fmt/format.h>

#include "ground/error.h"
#include "kernels/decode_attention.h"
#include "kernels/decode_attention_tc.h"
#include "kernels/gemm_epilogue.h"
#include "kernels/kv_append.h"
#include "kernels/prefill_attention.h"
#include "kernels/rmsnorm.h"
#include "kernels/rope.h"
#include "kernels/spec_verify_attention.h"

namespace sassim::emu::workload {
namespace {

namespace k = kernels;
namespace da = kernels::decode_attention;
namespace pa = kernels::prefill_attention;
namespace sv = kernels::spec_verify_attention;

// Prompt tokens a prefill layer may take: the capture executes every GEMM on the CPU.
constexpr uint64_t kMaxPromptTokens = 65536;

da::Problem decode_problem(const LayerOptions& o) {
  return da::Problem{.batch = o.batch, .context = o.context, .kv_heads = o.kv_heads};
}

Binding at(int tensor, uint64_t offset = 0) {
  return Binding{tensor, offset};
}

}  // namespace

void check_attention_options(const LayerOptions& o) {
  check_common_options(o);
  if (o.phase == Phase::kDecode) {
    if (o.heads != da::kGroup * o.kv_heads) {
      throw Error(
          fmt::format("--heads {} with --kv-heads {}: decode_attention groups exactly {} "
                      "query heads per KV head (kernels/decode_attention.h), so --heads "
                      "must be {}",
                      o.heads, o.kv_heads, da::kGroup, da::kGroup * o.kv_heads));
    }
    if (o.draft > sv::kMaxDraft) {
      throw Error(
          fmt::format("--draft {}: expected 0 to {} draft tokens per sequence (0: a plain "
                      "decode step)",
                      o.draft, sv::kMaxDraft));
    }
    if (o.draft > 0 && o.attention == AttentionChoice::kTensorCores) {
      throw Error(
          fmt::format("--attention tc with --draft {}: the verification step's "
                      "attention (spec_verify_attention) runs on the CUDA cores only; "
                      "expected --attention cuda",
                      o.draft));
    }
    if (o.draft > 0 && o.context < 2 * (o.draft + 1)) {
      throw Error(
          fmt::format("--context {} with --draft {}: expected at least 2 x (draft + 1) = {} "
                      "tokens (the context holds the draft + 1 verified tokens, and the "
                      "shortest sequence has 3/4 of it)",
                      o.context, o.draft, 2 * (o.draft + 1)));
    }
    return;
  }
  if (o.draft > 0) {
    throw Error(
        fmt::format("--draft {} with --phase prefill: draft tokens are verified in a "
                    "decode step (--phase decode)",
                    o.draft));
  }
  if (o.context % pa::kBlockQ != 0) {
    throw Error(
        fmt::format("--context {} with --phase prefill: expected a multiple of {} (the prompt "
                    "length; prefill_attention takes {} query rows per CTA, "
                    "kernels/prefill_attention.h)",
                    o.context, pa::kBlockQ, pa::kBlockQ));
  }
  if (uint64_t{o.batch} * o.context > kMaxPromptTokens) {
    throw Error(
        fmt::format("--batch {} x --context {} = {} prompt tokens with --phase prefill: expected "
                    "at most {} (every token goes through the layer's GEMMs in the capture)",
                    o.batch, o.context, uint64_t{o.batch} * o.context, kMaxPromptTokens));
  }
}

uint32_t layer_tokens(const LayerOptions& o) {
  // Decode: the verified rows with --draft (the last token and the drafts of each sequence).
  return o.phase == Phase::kPrefill ? o.batch * o.context : o.batch * (o.draft + 1);
}

AttentionHalf::AttentionHalf(PlanBuilder& b, const LayerOptions& o, const LayerGemm& gemm,
                             uint32_t tokens)
    : o_(o), gemm_(gemm), t_(tokens) {
  const uint64_t t = t_, m = gemm.rows, h = o.hidden, q_dim = uint64_t{o.heads} * kHeadDim,
                 kv_dim = uint64_t{o.kv_heads} * kHeadDim, qkv = q_dim + 2 * kv_dim;
  const std::string& wtype = gemm.weight_type;
  x_ = b.tensor("x", dims(t, h, "bf16"), t * h * 2, Role::kActivation, Fill::kBf16, 1);
  w_norm_ = b.tensor("attn_norm.weight", fmt::format("[{}] bf16", h), h * 2, Role::kWeight,
                     Fill::kBf16, 11);
  xn_ = b.tensor("attn_norm.out", dims(m, h, "bf16"), m * h * 2, Role::kActivation);
  w_qkv_ = b.tensor("qkv_proj.weight", dims(qkv, h, wtype), qkv * h * 2, Role::kWeight,
                    gemm.weight_fill, 12, weight_scale(o.hidden));
  qkv32_ = b.tensor("qkv_proj.out", dims(m, qkv, "fp32"), m * qkv * 4, Role::kScratch);
  q_ = b.tensor("q", dims(t, q_dim, "bf16"), t * q_dim * 2, Role::kActivation);
  k_ = b.tensor("k", dims(t, kv_dim, "bf16"), t * kv_dim * 2, Role::kActivation);
  v_ = b.tensor("v", dims(t, kv_dim, "bf16"), t * kv_dim * 2, Role::kActivation);
  if (o.phase == Phase::kDecode) {
    declare_decode(b);
  } else {
    declare_prefill(b);
  }
  attn_ = b.tensor("o_proj.in", dims(m, q_dim, "bf16"), m * q_dim * 2, Role::kActivation);
  w_o_ = b.tensor("o_proj.weight", dims(h, q_dim, wtype), h * q_dim * 2, Role::kWeight,
                  gemm.weight_fill, 13, weight_scale(static_cast<uint32_t>(q_dim)));
  o32_ = b.tensor("o_proj.out", dims(m, h, "fp32"), m * h * 4, Role::kScratch);
  h_ = b.tensor("h", dims(t, h, "bf16"), t * h * 2, Role::kActivation);
}

void AttentionHalf::declare_decode(PlanBuilder& b) {
  const uint64_t t = t_, q_dim = uint64_t{o_.heads} * kHeadDim;
  const da::Problem attention = decode_problem(o_);
  const uint64_t cache_bytes = da::cache_bytes(attention);
  const sv::Problem verify{
      .batch = o_.batch, .context = o_.context, .draft = o_.draft, .kv_heads = o_.kv_heads};
  const uint64_t partials = o_.draft > 0 ? sv::partial_count(verify) : da::partial_count(attention);
  pages_ = attention.num_pages();
  positions_ =
      b.tensor("positions", fmt::format("[{}] int32", t), t * 4, Role::kIndex, Fill::kPositions);
  cos_sin_ = b.tensor("rope.cos_sin", dims(o_.context, kHeadDim, "fp32"),
                      uint64_t{o_.context} * kHeadDim * 4, Role::kWeight, Fill::kCosSin);
  const std::string cache_shape =
      fmt::format("[{}][{}][{}][{}] bf16", pages_, o_.kv_heads, da::kPageSize, kHeadDim);
  k_cache_ = b.tensor("k_cache", cache_shape, cache_bytes, Role::kCache, Fill::kBf16, 2);
  v_cache_ = b.tensor("v_cache", cache_shape, cache_bytes, Role::kCache, Fill::kBf16, 3);
  slots_ =
      b.tensor("slot_mapping", fmt::format("[{}] int64", t), t * 8, Role::kIndex, Fill::kSlots);
  // Per sequence (block tables, context lengths); with --draft each verified row's context
  // too, written by spec_verify_attention for the combine.
  const uint64_t batch = o_.batch;
  tables_ = b.tensor("block_tables", dims(batch, attention.max_pages(), "int32"),
                     batch * attention.max_pages() * 4, Role::kIndex, Fill::kBlockTables);
  lens_ = b.tensor("context_lens", fmt::format("[{}] int32", batch), batch * 4, Role::kIndex,
                   Fill::kContextLens);
  if (o_.draft > 0) {
    row_lens_ = b.tensor("attention.row_lens", fmt::format("[{}] int32", t), t * 4, Role::kScratch);
  }
  o_partial_ =
      b.tensor("attention.o_partial",
               fmt::format("[{}][{}][{}][{}] fp32", t, o_.heads, attention.splits(), kHeadDim),
               partials * kHeadDim * 4, Role::kScratch);
  lse_ =
      b.tensor("attention.lse", fmt::format("[{}][{}][{}] fp32", t, o_.heads, attention.splits()),
               partials * 4, Role::kScratch);
  attn32_ = b.tensor("attention.out", dims(t, q_dim, "fp32"), t * q_dim * 4, Role::kScratch);
}

void AttentionHalf::declare_prefill(PlanBuilder& b) {
  const uint64_t t = t_, kv_dim = uint64_t{o_.kv_heads} * kHeadDim;
  pages_ = uint64_t{o_.batch} * k::ceil_div(o_.context, da::kPageSize);
  const uint64_t cache_bytes = pages_ * kv_dim * da::kPageSize * 2;
  positions_ = b.tensor("positions", fmt::format("[{}] int32", t), t * 4, Role::kIndex,
                        Fill::kPromptPositions);
  cos_sin_ = b.tensor("rope.cos_sin", dims(o_.context, kHeadDim, "fp32"),
                      uint64_t{o_.context} * kHeadDim * 4, Role::kWeight, Fill::kCosSin);
  const std::string cache_shape =
      fmt::format("[{}][{}][{}][{}] bf16", pages_, o_.kv_heads, da::kPageSize, kHeadDim);
  k_cache_ = b.tensor("k_cache", cache_shape, cache_bytes, Role::kCache);
  v_cache_ = b.tensor("v_cache", cache_shape, cache_bytes, Role::kCache);
  slots_ = b.tensor("slot_mapping", fmt::format("[{}] int64", t), t * 8, Role::kIndex,
                    Fill::kPromptSlots);
}

void AttentionHalf::add_launches(PlanBuilder& b) const {
  const uint64_t t = t_, h = o_.hidden, q_dim = uint64_t{o_.heads} * kHeadDim,
                 kv_dim = uint64_t{o_.kv_heads} * kHeadDim, qkv = q_dim + 2 * kv_dim;
  const std::string cast = std::string(k::gemm_epilogue::kCastKernel);
  b.launch("attn_norm", k::rmsnorm::kKernel, {u(t), u(h)}, {at(x_), at(w_norm_), at(xn_)});
  b.launch("qkv_proj", gemm_.kernel, gemm_.values(qkv, h), {at(xn_), at(w_qkv_), at(qkv32_)});
  b.launch("q_cast", cast, {u(t), u(q_dim), u(qkv)}, {at(qkv32_), at(q_)});
  b.launch("k_cast", cast, {u(t), u(kv_dim), u(qkv)}, {at(qkv32_, q_dim * 4), at(k_)});
  b.launch("v_cast", cast, {u(t), u(kv_dim), u(qkv)}, {at(qkv32_, (q_dim + kv_dim) * 4), at(v_)});
  b.launch("rope", k::rope::kKernel, {u(t), u(o_.heads), u(o_.kv_heads), u(o_.context)},
           {at(positions_), at(q_), at(k_), at(cos_sin_)});
  b.launch("kv_append", k::kv_append::kKernel, {u(t), u(o_.kv_heads), u(pages_)},
           {at(k_), at(v_), at(k_cache_), at(v_cache_), at(slots_)});
  if (o_.phase == Phase::kDecode) {
    const std::vector<std::string> values{u(t), u(o_.context), u(o_.kv_heads)};
    if (o_.draft == 0) {
      b.launch(
          "attention",
          o_.attention == AttentionChoice::kTensorCores ? k::decode_attention_tc::kKernel
                                                        : da::kKernel,
          values,
          {at(q_), at(k_cache_), at(v_cache_), at(tables_), at(lens_), at(o_partial_), at(lse_)});
    } else {
      b.launch("attention", sv::kKernel, {u(o_.batch), u(o_.context), u(o_.draft), u(o_.kv_heads)},
               {at(q_), at(k_cache_), at(v_cache_), at(tables_), at(lens_), at(o_partial_),
                at(lse_), at(row_lens_)});
    }
    b.launch("attention_combine", da::kCombineKernel, values,
             {at(o_partial_), at(lse_), at(o_.draft == 0 ? lens_ : row_lens_), at(attn32_)});
    b.launch("attention_cast", cast, {u(t), u(q_dim)}, {at(attn32_), at(attn_)});
  } else {
    b.launch("attention", pa::kKernel,
             {u(o_.batch), u(o_.context), u(o_.heads), u(o_.kv_heads), u(1)},
             {at(q_), at(k_), at(v_), at(attn_)});
  }
  b.launch("o_proj", gemm_.kernel, gemm_.values(h, q_dim), {at(attn_), at(w_o_), at(o32_)});
  b.launch("attn_residual", k::gemm_epilogue::kResidualKernel, {u(t), u(h)},
           {at(o32_), at(x_), at(h_)});
}

}  // namespace sassim::emu::workload
