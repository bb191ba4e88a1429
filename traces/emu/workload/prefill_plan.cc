// plan_dense_prefill (layer_plan.h): the prefill of a dense decoder layer.
#include <fmt/format.h>

#include "ground/error.h"
#include "kernels/decode_attention.h"
#include "kernels/gemm_epilogue.h"
#include "kernels/kv_append.h"
#include "kernels/prefill_attention.h"
#include "kernels/rmsnorm.h"
#include "kernels/rope.h"
#include "kernels/swiglu.h"
#include "traces/emu/workload/layer_plan.h"
#include "traces/emu/workload/plan_builder.h"

namespace sassim::emu::workload {
namespace {

namespace k = kernels;
namespace pa = kernels::prefill_attention;

// Prompt tokens a prefill layer may take: the capture executes every GEMM on the CPU.
constexpr uint64_t kMaxPromptTokens = 65536;

void check_prefill_options(const LayerOptions& o) {
  check_common_options(o);
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

}  // namespace

LayerPlan plan_dense_prefill(const LayerOptions& o) {
  check_prefill_options(o);
  LayerPlan plan;
  plan.options = o;
  const uint32_t t = o.batch * o.context;
  const LayerGemm gemm = choose_gemm(o, t);
  const uint32_t m = gemm.rows;
  plan.tokens = t;
  plan.padded_rows = m;
  const uint64_t h = o.hidden, q_dim = uint64_t{o.heads} * kHeadDim,
                 kv_dim = uint64_t{o.kv_heads} * kHeadDim, qkv = q_dim + 2 * kv_dim, f = o.ffn;
  const std::string& wtype = gemm.weight_type;
  const uint64_t pages = uint64_t{o.batch} * k::ceil_div(o.context, k::decode_attention::kPageSize);
  const uint64_t cache_bytes = pages * kv_dim * k::decode_attention::kPageSize * 2;

  PlanBuilder b(plan);
  const int x =
      b.tensor("x", dims(t, h, "bf16"), uint64_t{t} * h * 2, Role::kActivation, Fill::kBf16, 1);
  const int w_attn_norm = b.tensor("attn_norm.weight", fmt::format("[{}] bf16", h), h * 2,
                                   Role::kWeight, Fill::kBf16, 11);
  const int xn = b.tensor("attn_norm.out", dims(m, h, "bf16"), m * h * 2, Role::kActivation);
  const int w_qkv = b.tensor("qkv_proj.weight", dims(qkv, h, wtype), qkv * h * 2, Role::kWeight,
                             gemm.weight_fill, 12, weight_scale(o.hidden));
  const int qkv32 = b.tensor("qkv_proj.out", dims(m, qkv, "fp32"), m * qkv * 4, Role::kScratch);
  const int q = b.tensor("q", dims(t, q_dim, "bf16"), t * q_dim * 2, Role::kActivation);
  const int kk = b.tensor("k", dims(t, kv_dim, "bf16"), t * kv_dim * 2, Role::kActivation);
  const int v = b.tensor("v", dims(t, kv_dim, "bf16"), t * kv_dim * 2, Role::kActivation);
  const int positions = b.tensor("positions", fmt::format("[{}] int32", t), uint64_t{t} * 4,
                                 Role::kIndex, Fill::kPromptPositions);
  const int cos_sin = b.tensor("rope.cos_sin", dims(o.context, kHeadDim, "fp32"),
                               uint64_t{o.context} * kHeadDim * 4, Role::kWeight, Fill::kCosSin);
  const std::string cache_shape = fmt::format("[{}][{}][{}][{}] bf16", pages, o.kv_heads,
                                              k::decode_attention::kPageSize, kHeadDim);
  const int k_cache = b.tensor("k_cache", cache_shape, cache_bytes, Role::kCache);
  const int v_cache = b.tensor("v_cache", cache_shape, cache_bytes, Role::kCache);
  const int slots = b.tensor("slot_mapping", fmt::format("[{}] int64", t), uint64_t{t} * 8,
                             Role::kIndex, Fill::kPromptSlots);
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
  b.launch("kv_append", k::kv_append::kKernel, {u(t), u(o.kv_heads), u(pages)},
           {at(kk), at(v), at(k_cache), at(v_cache), at(slots)});
  b.launch("attention", pa::kKernel, {u(o.batch), u(o.context), u(o.heads), u(o.kv_heads), u(1)},
           {at(q), at(kk), at(v), at(attn)});
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
