#include "traces/emu/workload/layer_plan.h"

#include <fmt/format.h>

#include "ground/error.h"
#include "kernels/decode_attention.h"
#include "kernels/gemm_epilogue.h"
#include "kernels/rmsnorm.h"
#include "kernels/swiglu.h"
#include "traces/emu/workload/attention_half.h"
#include "traces/emu/workload/plan_builder.h"
#include "traces/emu/workload/tensor_parallel.h"

namespace sassim::emu::workload {
namespace {

namespace k = kernels;
namespace da = kernels::decode_attention;

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
  if (o.ep != 1) {
    throw Error(fmt::format(
        "--ep {}: a dense layer has no experts to spread (expert parallelism is moe-layer's; "
        "--tp splits a dense layer)",
        o.ep));
  }
  if (o.tp != 1) return plan_tp_rank(o, plan_dense_layer, {"o_proj", "down_proj"});
  check_attention_options(o);
  LayerPlan plan;
  plan.workload = kDenseLayer;
  plan.options = o;
  const uint32_t t = layer_tokens(o);
  const LayerGemm gemm = choose_gemm(o, t);
  const uint64_t m = gemm.rows;
  plan.tokens = t;
  plan.padded_rows = gemm.rows;
  plan.gemm_row_tile = gemm.row_tile;
  const uint64_t h = o.hidden, f = o.ffn;
  const std::string& wtype = gemm.weight_type;

  PlanBuilder b(plan);
  const AttentionHalf attention(b, o, gemm, t);
  const int hres = attention.h();
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
  attention.add_launches(b);
  b.launch("ffn_norm", k::rmsnorm::kKernel, {u(t), u(h)}, {at(hres), at(w_ffn_norm), at(hn)});
  b.launch("gate_up_proj", gemm.kernel, gemm.values(2 * f, h), {at(hn), at(w_gu), at(gu32)});
  b.launch("gate_up_cast", cast, {u(t), u(2 * f)}, {at(gu32), at(gu)});
  b.launch("swiglu", k::swiglu::kKernel, {u(t), u(f)}, {at(gu), at(act)});
  b.launch("down_proj", gemm.kernel, gemm.values(h, f), {at(act), at(w_down), at(d32)});
  b.launch("ffn_residual", k::gemm_epilogue::kResidualKernel, {u(t), u(h)},
           {at(d32), at(hres), at(out)});
  check_bindings(plan);
  return plan;
}

LayerPlan plan_dense_prefill(const LayerOptions& o) {
  LayerOptions prefill = o;
  prefill.phase = Phase::kPrefill;
  return plan_dense_layer(prefill);
}

}  // namespace sassim::emu::workload
