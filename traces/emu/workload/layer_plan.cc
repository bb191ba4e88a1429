#include "traces/emu/workload/layer_plan.h"

#include <fmt/format.h>

#include "ground/error.h"
#include "kernels/decode_attention.h"
#include "kernels/gemm_epilogue.h"
#include "kernels/kv_append.h"
#include "kernels/rmsnorm.h"
#include "kernels/rope.h"
#include "kernels/spec_verify_attention.h"
#include "kernels/suite.h"
#include "kernels/swiglu.h"
#include "traces/emu/workload/plan_builder.h"

namespace sassim::emu::workload {
namespace {

namespace k = kernels;
namespace da = kernels::decode_attention;
namespace sv = kernels::spec_verify_attention;

void check_decode_options(const LayerOptions& o) {
  check_common_options(o);
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
  if (o.draft > 0 && o.context < 2 * (o.draft + 1)) {
    throw Error(
        fmt::format("--context {} with --draft {}: expected at least 2 x (draft + 1) = {} "
                    "tokens (the context holds the draft + 1 verified tokens, and the "
                    "shortest sequence has 3/4 of it)",
                    o.context, o.draft, 2 * (o.draft + 1)));
  }
}

}  // namespace

int LayerPlan::tensor(std::string_view name) const {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == name) return static_cast<int>(i);
  throw Error(fmt::format("the layer has no tensor {}", name));
}

uint64_t LayerPlan::total_bytes() const {
  uint64_t total = 0;
  for (const Tensor& t : tensors) total += t.bytes;
  return total;
}

std::vector<int32_t> row_positions(const LayerOptions& o) {
  const std::vector<int32_t> lens =
      da::context_lens(da::Problem{.batch = o.batch, .context = o.context, .kv_heads = o.kv_heads});
  const uint32_t rows = o.draft + 1;
  std::vector<int32_t> positions(size_t{o.batch} * rows);
  for (size_t r = 0; r < positions.size(); ++r)
    positions[r] = lens[r / rows] - static_cast<int32_t>(rows - r % rows);
  return positions;
}

LayerPlan plan_dense_layer(const LayerOptions& o) {
  if (o.phase == Phase::kPrefill) {
    if (o.draft > 0) {
      throw Error(
          fmt::format("--draft {} with --phase prefill: draft tokens are verified in a "
                      "decode step (--phase decode)",
                      o.draft));
    }
    return plan_dense_prefill(o);
  }
  check_decode_options(o);
  LayerPlan plan;
  plan.options = o;
  const uint32_t t = o.batch * (o.draft + 1);  // token rows: the verified ones with --draft
  const LayerGemm gemm = choose_gemm(o, t);
  const uint32_t m = gemm.rows;
  plan.tokens = t;
  plan.padded_rows = m;
  const uint64_t h = o.hidden, q_dim = uint64_t{o.heads} * kHeadDim,
                 kv_dim = uint64_t{o.kv_heads} * kHeadDim, qkv = q_dim + 2 * kv_dim, f = o.ffn;
  const std::string& wtype = gemm.weight_type;
  const da::Problem attention{.batch = o.batch, .context = o.context, .kv_heads = o.kv_heads};
  const uint64_t cache_bytes = da::cache_bytes(attention);
  const sv::Problem verify{
      .batch = o.batch, .context = o.context, .draft = o.draft, .kv_heads = o.kv_heads};
  const uint64_t partials = o.draft > 0 ? sv::partial_count(verify) : da::partial_count(attention);

  PlanBuilder b(plan);
  // Activations and weights, in the order the layer meets them.
  const int x = b.tensor("x", dims(t, h, "bf16"), t * h * 2, Role::kActivation, Fill::kBf16, 1);
  const int w_attn_norm = b.tensor("attn_norm.weight", fmt::format("[{}] bf16", h), h * 2,
                                   Role::kWeight, Fill::kBf16, 11);
  const int xn = b.tensor("attn_norm.out", dims(m, h, "bf16"), m * h * 2, Role::kActivation);
  const int w_qkv = b.tensor("qkv_proj.weight", dims(qkv, h, wtype), qkv * h * 2, Role::kWeight,
                             gemm.weight_fill, 12, weight_scale(o.hidden));
  const int qkv32 = b.tensor("qkv_proj.out", dims(m, qkv, "fp32"), m * qkv * 4, Role::kScratch);
  const int q = b.tensor("q", dims(t, q_dim, "bf16"), t * q_dim * 2, Role::kActivation);
  const int kk = b.tensor("k", dims(t, kv_dim, "bf16"), t * kv_dim * 2, Role::kActivation);
  const int v = b.tensor("v", dims(t, kv_dim, "bf16"), t * kv_dim * 2, Role::kActivation);
  const int positions =
      b.tensor("positions", fmt::format("[{}] int32", t), t * 4, Role::kIndex, Fill::kPositions);
  const int cos_sin = b.tensor("rope.cos_sin", dims(o.context, kHeadDim, "fp32"),
                               uint64_t{o.context} * kHeadDim * 4, Role::kWeight, Fill::kCosSin);
  const std::string cache_shape = fmt::format("[{}][{}][{}][{}] bf16", attention.num_pages(),
                                              o.kv_heads, da::kPageSize, kHeadDim);
  const int k_cache = b.tensor("k_cache", cache_shape, cache_bytes, Role::kCache, Fill::kBf16, 2);
  const int v_cache = b.tensor("v_cache", cache_shape, cache_bytes, Role::kCache, Fill::kBf16, 3);
  const int slots =
      b.tensor("slot_mapping", fmt::format("[{}] int64", t), t * 8, Role::kIndex, Fill::kSlots);
  const int tables =
      b.tensor("block_tables", dims(o.batch, attention.max_pages(), "int32"),
               uint64_t{o.batch} * attention.max_pages() * 4, Role::kIndex, Fill::kBlockTables);
  const int lens = b.tensor("context_lens", fmt::format("[{}] int32", o.batch), o.batch * 4,
                            Role::kIndex, Fill::kContextLens);
  // With --draft: each verified row's context, written by spec_verify_attention.
  const int row_lens = o.draft == 0 ? -1
                                    : b.tensor("attention.row_lens", fmt::format("[{}] int32", t),
                                               t * 4, Role::kScratch);
  const int o_partial =
      b.tensor("attention.o_partial",
               fmt::format("[{}][{}][{}][{}] fp32", t, o.heads, attention.splits(), kHeadDim),
               partials * kHeadDim * 4, Role::kScratch);
  const int lse =
      b.tensor("attention.lse", fmt::format("[{}][{}][{}] fp32", t, o.heads, attention.splits()),
               partials * 4, Role::kScratch);
  const int attn32 =
      b.tensor("attention.out", dims(t, q_dim, "fp32"), t * q_dim * 4, Role::kScratch);
  const int attn = b.tensor("o_proj.in", dims(m, q_dim, "bf16"), m * q_dim * 2, Role::kActivation);
  const int w_o = b.tensor("o_proj.weight", dims(h, q_dim, wtype), h * q_dim * 2, Role::kWeight,
                           gemm.weight_fill, 13, weight_scale(static_cast<uint32_t>(q_dim)));
  const int o32 = b.tensor("o_proj.out", dims(m, h, "fp32"), m * h * 4, Role::kScratch);
  const int hres = b.tensor("h", dims(t, h, "bf16"), t * h * 2, Role::kActivation);
  const int w_ffn_norm = b.tensor("ffn_norm.weight", fmt::format("[{}] bf16", h), h * 2,
                                  Role::kWeight, Fill::kBf16, 14);
  const int hn = b.tensor("ffn_norm.out", dims(m, h, "bf16"), m * h * 2, Role::kActivation);
  const int w_gu = b.tensor("gate_up_proj.weight", dims(2 * f, h, wtype), 2 * f * h * 2,
                            Role::kWeight, gemm.weight_fill, 15, weight_scale(o.hidden));
  const int gu32 =
      b.tensor("gate_up_proj.out", dims(m, 2 * f, "fp32"), m * 2 * f * 4, Role::kScratch);
  const int gu = b.tensor("gate_up", dims(t, 2 * f, "bf16"), t * 2 * f * 2, Role::kActivation);
  const int act = b.tensor("down_proj.in", dims(m, f, "bf16"), m * f * 2, Role::kActivation);
  const int w_down = b.tensor("down_proj.weight", dims(h, f, wtype), h * f * 2, Role::kWeight,
                              gemm.weight_fill, 16, weight_scale(o.ffn));
  const int d32 = b.tensor("down_proj.out", dims(m, h, "fp32"), m * h * 4, Role::kScratch);
  const int out = b.tensor("out", dims(t, h, "bf16"), t * h * 2, Role::kActivation);
  check_layer_size(plan);

  auto at = [](int tensor, uint64_t offset = 0) { return Binding{tensor, offset}; };
  const std::string cast = std::string(k::gemm_epilogue::kCastKernel);
  const std::string residual = std::string(k::gemm_epilogue::kResidualKernel);

  b.launch("attn_norm", k::rmsnorm::kKernel, {u(t), u(h)}, {at(x), at(w_attn_norm), at(xn)});
  b.launch("qkv_proj", gemm.kernel, gemm.values(qkv, h), {at(xn), at(w_qkv), at(qkv32)});
  b.launch("q_cast", cast, {u(t), u(q_dim), u(qkv)}, {at(qkv32), at(q)});
  b.launch("k_cast", cast, {u(t), u(kv_dim), u(qkv)}, {at(qkv32, q_dim * 4), at(kk)});
  b.launch("v_cast", cast, {u(t), u(kv_dim), u(qkv)}, {at(qkv32, (q_dim + kv_dim) * 4), at(v)});
  b.launch("rope", k::rope::kKernel, {u(t), u(o.heads), u(o.kv_heads), u(o.context)},
           {at(positions), at(q), at(kk), at(cos_sin)});
  b.launch("kv_append", k::kv_append::kKernel, {u(t), u(o.kv_heads), u(attention.num_pages())},
           {at(kk), at(v), at(k_cache), at(v_cache), at(slots)});
  const std::vector<std::string> attention_values{u(t), u(o.context), u(o.kv_heads)};
  if (o.draft == 0) {
    b.launch("attention", da::kKernel, attention_values,
             {at(q), at(k_cache), at(v_cache), at(tables), at(lens), at(o_partial), at(lse)});
  } else {
    b.launch("attention", sv::kKernel, {u(o.batch), u(o.context), u(o.draft), u(o.kv_heads)},
             {at(q), at(k_cache), at(v_cache), at(tables), at(lens), at(o_partial), at(lse),
              at(row_lens)});
  }
  b.launch("attention_combine", da::kCombineKernel, attention_values,
           {at(o_partial), at(lse), at(o.draft == 0 ? lens : row_lens), at(attn32)});
  b.launch("attention_cast", cast, {u(t), u(q_dim)}, {at(attn32), at(attn)});
  b.launch("o_proj", gemm.kernel, gemm.values(h, q_dim), {at(attn), at(w_o), at(o32)});
  b.launch("attn_residual", residual, {u(t), u(h)}, {at(o32), at(x), at(hres)});
  b.launch("ffn_norm", k::rmsnorm::kKernel, {u(t), u(h)}, {at(hres), at(w_ffn_norm), at(hn)});
  b.launch("gate_up_proj", gemm.kernel, gemm.values(2 * f, h), {at(hn), at(w_gu), at(gu32)});
  b.launch("gate_up_cast", cast, {u(t), u(2 * f)}, {at(gu32), at(gu)});
  b.launch("swiglu", k::swiglu::kKernel, {u(t), u(f)}, {at(gu), at(act)});
  b.launch("down_proj", gemm.kernel, gemm.values(h, f), {at(act), at(w_down), at(d32)});
  b.launch("ffn_residual", residual, {u(t), u(h)}, {at(d32), at(hres), at(out)});
  check_bindings(plan);
  return plan;
}

}  // namespace sassim::emu::workload
