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
#include "traces/emu/workload/expert_parallel.h"
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
  return k::ceil_div(experts, gemm.col_tile) * gemm.col_tile;
}

Binding at(int tensor, uint64_t offset = 0) {
  return Binding{tensor, offset};
}

}  // namespace

LayerPlan plan_moe_layer(const LayerOptions& o) {
  // The un-permutation also adds the residual here: the all-reduce follows it.
  if (o.tp != 1 && o.ep == 1) return plan_tp_rank(o, plan_moe_layer, {"o_proj", "unpermute"});
  const uint32_t ep = o.ep;
  if (ep != 1) check_expert_parallel(o);
  // Expert parallelism: this rank's batch / ep sequences (data-parallel attention).
  LayerOptions own = o;
  own.batch = o.batch / ep;
  check_attention_options(own);
  check_moe_options(o);
  LayerPlan plan;
  plan.workload = kMoeLayer;
  plan.options = own;  // with ep > 1, the rank's sequences (ep and ep_rank say which)
  const uint32_t t = layer_tokens(own);
  const LayerGemm gemm = choose_gemm(own, t);
  const uint64_t m = gemm.rows;
  plan.tokens = t;
  plan.padded_rows = gemm.rows;
  plan.gemm_row_tile = gemm.row_tile;
  const moe::Routing routing{
      .tokens = t, .experts = o.experts, .top_k = o.top_k, .stride = router_cols(gemm, o.experts)};
  // The pairs the experts' side aligns: the rank's own (one GPU), or the ep x pairs slots
  // of the rows the dispatch brings (expert_parallel.h), each one pair.
  const ExpertRange mine = local_experts(o);
  const moe::Routing experts_routing = ep == 1 ? routing
                                               : moe::Routing{.tokens = ep * routing.pairs(),
                                                              .experts = o.experts,
                                                              .top_k = 1,
                                                              .stride = o.experts,
                                                              .first_expert = mine.first,
                                                              .local_experts = mine.count};
  const uint64_t h = o.hidden, f = o.ffn, e = mine.count, n_router = routing.stride,
                 pairs = routing.pairs(), slots = experts_routing.pairs(),
                 rows = experts_routing.max_rows();

  PlanBuilder b(plan);
  const AttentionHalf attention(b, own, gemm, t);
  plan.tensors[static_cast<size_t>(attention.x())].fill_offset = uint64_t{o.ep_rank} * t * h;
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
  int slot_ids = ids, slot_rows = hn, combined = -1, own_rows = -1;
  if (ep != 1) {
    slot_ids = b.tensor(std::string(kDispatchIds), fmt::format("[{}] int32", slots), slots * 4,
                        Role::kIndex);
    slot_rows = b.tensor(std::string(kDispatchRows), dims(slots, h, "bf16"), slots * h * 2,
                         Role::kActivation);
  }
  const int sorted =
      b.tensor("moe.sorted_ids", fmt::format("[{}] int32", rows), rows * 4, Role::kIndex);
  const int tiles =
      b.tensor("moe.tile_experts", fmt::format("[{}] int32", experts_routing.max_tiles()),
               uint64_t{experts_routing.max_tiles()} * 4, Role::kIndex);
  const int pair_rows =
      b.tensor("moe.pair_rows", fmt::format("[{}] int32", slots), slots * 4, Role::kIndex);
  const int total = b.tensor("moe.total_rows", "[1] int32", 4, Role::kIndex);
  const int xs = b.tensor("experts.in", dims(rows, h, "bf16"), rows * h * 2, Role::kActivation);
  const int w_gu =
      b.tensor("experts.gate_up.weight", fmt::format("[{}][{}][{}] bf16", e, 2 * f, h),
               e * 2 * f * h * 2, Role::kWeight, Fill::kWeightBf16, 15, weight_scale(o.hidden));
  plan.tensors[static_cast<size_t>(w_gu)].fill_offset = uint64_t{mine.first} * 2 * f * h;
  const int gu32 =
      b.tensor("experts.gate_up.out", dims(rows, 2 * f, "fp32"), rows * 2 * f * 4, Role::kScratch);
  const int gu =
      b.tensor("experts.gate_up", dims(rows, 2 * f, "bf16"), rows * 2 * f * 2, Role::kActivation);
  const int act =
      b.tensor("experts.down.in", dims(rows, f, "bf16"), rows * f * 2, Role::kActivation);
  const int w_down =
      b.tensor("experts.down.weight", fmt::format("[{}][{}][{}] bf16", e, h, f), e * h * f * 2,
               Role::kWeight, Fill::kWeightBf16, 16, weight_scale(o.ffn));
  plan.tensors[static_cast<size_t>(w_down)].fill_offset = uint64_t{mine.first} * h * f;
  const int d32 = b.tensor("experts.down.out", dims(rows, h, "fp32"), rows * h * 4, Role::kScratch);
  if (ep != 1) {
    // The combine brings each of the rank's pairs its expert's output, in pair order.
    combined = b.tensor(std::string(kCombineRows), dims(routing.max_rows(), h, "fp32"),
                        uint64_t{routing.max_rows()} * h * 4, Role::kScratch);
    own_rows = b.tensor("ep.pair_order", fmt::format("[{}] int32", pairs), pairs * 4, Role::kIndex,
                        Fill::kPairOrder);
  }
  const int out = b.tensor("out", dims(t, h, "bf16"), uint64_t{t} * h * 2, Role::kActivation);
  check_layer_size(plan, "--batch, --context, --hidden, --ffn or --experts");

  auto values = [](const moe::Routing& r, std::initializer_list<uint64_t> more) {
    std::vector<std::string> v{u(r.tokens), u(r.experts), u(r.top_k)};
    for (const uint64_t x : more) v.push_back(u(x));
    return v;
  };
  // The experts' side: the grouped GEMMs' experts are the rank's own.
  moe::Routing local = experts_routing;
  local.experts = mine.count;
  local.first_expert = 0;
  local.local_experts = 0;
  attention.add_launches(b);
  b.launch("ffn_norm", k::rmsnorm::kKernel, {u(t), u(h)}, {at(hres), at(w_norm), at(hn)});
  b.launch("router", gemm.kernel, gemm.values(n_router, h), {at(hn), at(w_router), at(logits)});
  b.launch("topk_softmax", moe::kTopkKernel, values(routing, {n_router}),
           {at(logits), at(ids), at(weights)});
  b.launch("align", moe::kAlignKernel,
           ep == 1 ? values(routing, {}) : values(experts_routing, {mine.first, mine.count}),
           {at(slot_ids), at(sorted), at(tiles), at(pair_rows), at(total)});
  b.launch("permute", moe::kPermuteKernel, values(local, {h}),
           {at(slot_rows), at(sorted), at(total), at(xs)});
  b.launch("experts_gate_up", moe::kGroupedGemmKernel, values(local, {2 * f, h}),
           {at(xs), at(w_gu), at(gu32), at(tiles), at(total)});
  b.launch("experts_cast", k::gemm_epilogue::kCastKernel, {u(rows), u(2 * f)}, {at(gu32), at(gu)});
  b.launch("experts_swiglu", k::swiglu::kKernel, {u(rows), u(f)}, {at(gu), at(act)});
  b.launch("experts_down", moe::kGroupedGemmKernel, values(local, {h, f}),
           {at(act), at(w_down), at(d32), at(tiles), at(total)});
  b.launch("unpermute", moe::kUnpermuteKernel, values(routing, {h}),
           {at(ep == 1 ? d32 : combined), at(ep == 1 ? pair_rows : own_rows), at(weights), at(hres),
            at(out)});
  check_bindings(plan);
  if (ep != 1) add_alltoalls(plan);
  return plan;
}

}  // namespace sassim::emu::workload
