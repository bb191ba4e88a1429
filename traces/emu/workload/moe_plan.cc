// plan_moe_layer (layer_plan.h): a mixture-of-experts decoder layer.
#include <fmt/format.h>

#include "ground/error.h"
#include "kernels/gemm_epilogue.h"
#include "kernels/moe_gather.h"
#include "kernels/moe_grouped_gemm.h"
#include "kernels/moe_routing.h"
#include "kernels/rmsnorm.h"
#include "kernels/skinny_gemm.h"
#include "kernels/swiglu.h"
#include "traces/emu/workload/attention_half.h"
#include "traces/emu/workload/layer_plan.h"
#include "traces/emu/workload/plan_builder.h"
#include "traces/emu/workload/tensor_parallel.h"

namespace sassim::emu::workload {
namespace {

namespace k = kernels;
namespace moe = kernels::moe;

void check_moe_options(const LayerOptions& o) {
  if (o.experts == 0 || o.experts > moe::kMaxExperts) {
    throw Error(
        fmt::format("--experts {}: expected 1 to {} experts (moe_align counts the "
                    "tokens of every expert per thread in shared memory, "
                    "kernels/moe_routing.h)",
                    o.experts, moe::kMaxExperts));
  }
  if (o.top_k == 0 || o.top_k > o.experts) {
    throw Error(fmt::format("--top-k {} with --experts {}: expected 1 to {} experts per token",
                            o.top_k, o.experts, o.experts));
  }
}

// The router GEMM's N: the experts padded to the GEMM's column tile (the logits past the
// experts are computed from the padding rows of the router's weights and never read).
uint32_t router_cols(const LayerGemm& gemm, uint32_t experts) {
  const uint32_t tile = gemm.skinny ? k::skinny_gemm::kColsPerCta : kGemmTile;
  return k::ceil_div(experts, tile) * tile;
}

Binding at(int tensor, uint64_t offset = 0) {
  return Binding{tensor, offset};
}

}  // namespace

LayerPlan plan_moe_layer(const LayerOptions& o) {
  // The un-permutation also adds the residual here: the all-reduce follows it.
  if (o.tp != 1) return plan_tp_rank(o, plan_moe_layer, {"o_proj", "unpermute"});
  check_attention_options(o);
  check_moe_options(o);
  LayerPlan plan;
  plan.workload = kMoeLayer;
  plan.options = o;
  const uint32_t t = layer_tokens(o);
  const LayerGemm gemm = choose_gemm(o, t);
  const uint64_t m = gemm.rows;
  plan.tokens = t;
  plan.padded_rows = gemm.rows;
  const moe::Routing routing{
      .tokens = t, .experts = o.experts, .top_k = o.top_k, .stride = router_cols(gemm, o.experts)};
  const uint64_t h = o.hidden, f = o.ffn, e = o.experts, n_router = routing.stride,
                 pairs = routing.pairs(), rows = routing.max_rows();

  PlanBuilder b(plan);
  const AttentionHalf attention(b, o, gemm, t);
  const int hres = attention.h();
  const int w_norm = b.tensor("ffn_norm.weight", fmt::format("[{}] bf16", h), h * 2, Role::kWeight,
                              Fill::kBf16, 14);
  const int hn = b.tensor("ffn_norm.out", dims(m, h, "bf16"), m * h * 2, Role::kActivation);
  const int w_router =
      b.tensor("router.weight", dims(n_router, h, gemm.weight_type), n_router * h * 2,
               Role::kWeight, gemm.weight_fill, 17, weight_scale(o.hidden));
  const int logits =
      b.tensor("router.out", dims(m, n_router, "fp32"), m * n_router * 4, Role::kScratch);
  const int ids = b.tensor("topk.ids", dims(t, o.top_k, "int32"), pairs * 4, Role::kIndex);
  const int weights = b.tensor("topk.weights", dims(t, o.top_k, "fp32"), pairs * 4, Role::kScratch);
  const int sorted =
      b.tensor("moe.sorted_ids", fmt::format("[{}] int32", rows), rows * 4, Role::kIndex);
  const int tiles = b.tensor("moe.tile_experts", fmt::format("[{}] int32", routing.max_tiles()),
                             uint64_t{routing.max_tiles()} * 4, Role::kIndex);
  const int pair_rows =
      b.tensor("moe.pair_rows", fmt::format("[{}] int32", pairs), pairs * 4, Role::kIndex);
  const int total = b.tensor("moe.total_rows", "[1] int32", 4, Role::kIndex);
  const int xs = b.tensor("experts.in", dims(rows, h, "bf16"), rows * h * 2, Role::kActivation);
  const int w_gu =
      b.tensor("experts.gate_up.weight", fmt::format("[{}][{}][{}] bf16", e, 2 * f, h),
               e * 2 * f * h * 2, Role::kWeight, Fill::kWeightBf16, 15, weight_scale(o.hidden));
  const int gu32 =
      b.tensor("experts.gate_up.out", dims(rows, 2 * f, "fp32"), rows * 2 * f * 4, Role::kScratch);
  const int gu =
      b.tensor("experts.gate_up", dims(rows, 2 * f, "bf16"), rows * 2 * f * 2, Role::kActivation);
  const int act =
      b.tensor("experts.down.in", dims(rows, f, "bf16"), rows * f * 2, Role::kActivation);
  const int w_down =
      b.tensor("experts.down.weight", fmt::format("[{}][{}][{}] bf16", e, h, f), e * h * f * 2,
               Role::kWeight, Fill::kWeightBf16, 16, weight_scale(o.ffn));
  const int d32 = b.tensor("experts.down.out", dims(rows, h, "fp32"), rows * h * 4, Role::kScratch);
  const int out = b.tensor("out", dims(t, h, "bf16"), uint64_t{t} * h * 2, Role::kActivation);
  check_layer_size(plan, "--batch, --context, --hidden, --ffn or --experts");

  const std::vector<std::string> route{u(t), u(o.experts), u(o.top_k)};
  auto with = [&route](std::initializer_list<uint64_t> more) {
    std::vector<std::string> v = route;
    for (const uint64_t x : more) v.push_back(u(x));
    return v;
  };
  attention.add_launches(b);
  b.launch("ffn_norm", k::rmsnorm::kKernel, {u(t), u(h)}, {at(hres), at(w_norm), at(hn)});
  b.launch("router", gemm.kernel, gemm.values(n_router, h), {at(hn), at(w_router), at(logits)});
  b.launch("topk_softmax", moe::kTopkKernel, with({n_router}), {at(logits), at(ids), at(weights)});
  b.launch("align", moe::kAlignKernel, route,
           {at(ids), at(sorted), at(tiles), at(pair_rows), at(total)});
  b.launch("permute", moe::kPermuteKernel, with({h}), {at(hn), at(sorted), at(total), at(xs)});
  b.launch("experts_gate_up", moe::kGroupedGemmKernel, with({2 * f, h}),
           {at(xs), at(w_gu), at(gu32), at(tiles), at(total)});
  b.launch("experts_cast", k::gemm_epilogue::kCastKernel, {u(rows), u(2 * f)}, {at(gu32), at(gu)});
  b.launch("experts_swiglu", k::swiglu::kKernel, {u(rows), u(f)}, {at(gu), at(act)});
  b.launch("experts_down", moe::kGroupedGemmKernel, with({h, f}),
           {at(act), at(w_down), at(d32), at(tiles), at(total)});
  b.launch("unpermute", moe::kUnpermuteKernel, with({h}),
           {at(d32), at(pair_rows), at(weights), at(hres), at(out)});
  check_bindings(plan);
  return plan;
}

}  // namespace sassim::emu::workload
