// moe_topk_softmax and moe_align: see moe_routing.h.
#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/moe_routing.h"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::moe;

}  // namespace

extern "C" __global__ void __launch_bounds__(128)
    moe_topk_softmax(const float* __restrict__ logits, int32_t* __restrict__ ids,
                     float* __restrict__ weights, uint32_t tokens, uint32_t experts, uint32_t top_k,
                     uint32_t stride) {
  const uint32_t t = blockIdx.x * cfg::kTopkThreads + threadIdx.x;
  if (t >= tokens) return;
  const float* row = logits + static_cast<size_t>(t) * stride;
  float m = row[0];
  for (uint32_t e = 1; e < experts; ++e) m = fmaxf(m, row[e]);
  float sum = 0.0F;
  for (uint32_t e = 0; e < experts; ++e) sum = __fadd_rn(sum, __expf(__fsub_rn(row[e], m)));
  int32_t* out_ids = ids + static_cast<size_t>(t) * top_k;
  float* out_w = weights + static_cast<size_t>(t) * top_k;
  float last = 0.0F, picked = 0.0F;
  int32_t last_id = -1;
  for (uint32_t j = 0; j < top_k; ++j) {
    // The best expert ranked below the last pick (logit descending, index ascending).
    float best = -__int_as_float(0x7f800000);
    int32_t best_id = -1;
    for (uint32_t e = 0; e < experts; ++e) {
      const float v = row[e];
      const int32_t id = static_cast<int32_t>(e);
      const bool below = last_id < 0 || v < last || (v == last && id > last_id);
      if (below && (best_id < 0 || v > best)) {
        best = v;
        best_id = id;
      }
    }
    const float p = __fdividef(__expf(__fsub_rn(best, m)), sum);
    out_ids[j] = best_id;
    out_w[j] = p;
    picked = __fadd_rn(picked, p);
    last = best;
    last_id = best_id;
  }
  for (uint32_t j = 0; j < top_k; ++j) out_w[j] = __fdividef(out_w[j], picked);
}

extern "C" __global__ void __launch_bounds__(128)
    moe_align(const int32_t* __restrict__ ids, int32_t* __restrict__ sorted_ids,
              int32_t* __restrict__ tile_experts, int32_t* __restrict__ pair_rows,
              int32_t* __restrict__ total, uint32_t pairs, uint32_t experts, uint32_t max_rows,
              uint32_t first_expert) {
  constexpr uint32_t kThreads = cfg::kAlignThreads;
  constexpr uint32_t kTile = cfg::kRowTile;
  // counts[i][e]: pairs of expert e in thread i - 1's chunk; after the prefix sums, those
  // in the chunks of threads 0 .. i - 1. Then the segments' starts [experts + 1].
  extern __shared__ int32_t counts[];
  int32_t* starts = counts + (kThreads + 1) * experts;
  const uint32_t tid = threadIdx.x;
  for (uint32_t i = tid; i < (kThreads + 1) * experts; i += kThreads) counts[i] = 0;
  for (uint32_t i = tid; i < max_rows; i += kThreads) sorted_ids[i] = static_cast<int32_t>(pairs);
  for (uint32_t i = tid; i < max_rows / kTile; i += kThreads) tile_experts[i] = -1;
  __syncthreads();
  const uint32_t chunk = (pairs + kThreads - 1) / kThreads;
  const uint32_t begin = min(tid * chunk, pairs), end = min(begin + chunk, pairs);
  // Expert ids outside [first_expert, first_expert + experts) wrap to e >= experts.
  for (uint32_t i = begin; i < end; ++i) {
    const uint32_t e = static_cast<uint32_t>(ids[i]) - first_expert;
    if (e < experts) ++counts[(tid + 1) * experts + e];
  }
  __syncthreads();
  for (uint32_t e = tid; e < experts; e += kThreads) {
    for (uint32_t i = 1; i <= kThreads; ++i)
      counts[i * experts + e] += counts[(i - 1) * experts + e];
  }
  __syncthreads();
  if (tid == 0) {
    int32_t at = 0;
    for (uint32_t e = 0; e < experts; ++e) {
      starts[e] = at;
      at += (counts[kThreads * experts + e] + kTile - 1) / kTile * kTile;
    }
    starts[experts] = at;
    *total = at;
  }
  __syncthreads();
  for (uint32_t e = tid; e < experts; e += kThreads) {
    for (int32_t r = starts[e]; r < starts[e + 1]; r += kTile) tile_experts[r / kTile] = e;
  }
  for (uint32_t i = begin; i < end; ++i) {
    const uint32_t e = static_cast<uint32_t>(ids[i]) - first_expert;
    if (e >= experts) {
      pair_rows[i] = -1;
      continue;
    }
    const int32_t r = starts[e] + counts[tid * experts + e]++;
    sorted_ids[r] = static_cast<int32_t>(i);
    pair_rows[i] = r;
  }
}

namespace {

bool run(std::string_view kernel, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const cfg::Routing r = cfg::parse_routing(values, kernel);
  const cfg::TopK topk = cfg::example_topk(r);
  if (kernel == cfg::kTopkKernel) {
    const Launch config = cfg::topk_launch(r);
    std::vector<float> logits(size_t{r.tokens} * r.stride);
    fill_dyadic(logits, 1);
    DeviceBuffer<float> dl(logits), dw(r.pairs());
    DeviceBuffer<int32_t> di(r.pairs());
    print_launch(config);
    ::moe_topk_softmax<<<to_dim3(config.grid), to_dim3(config.block)>>>(
        dl.get(), di.get(), dw.get(), r.tokens, r.experts, r.top_k, r.stride);
    finish_launch();
    const bool ids_ok = di.download() == topk.ids;
    std::printf("moe_topk_softmax: expert ids %s\n", ids_ok ? "match" : "differ");
    // MUFU.EX2 and MUFU.RCP are approximations on a GPU: a few ulps of each weight.
    return check_close(dw.download(), topk.weights, 4e-6, 0, kernel) && ids_ok;
  }
  const Launch config = cfg::align_launch(r);
  const cfg::Alignment want = cfg::align_reference(r, topk.ids);
  DeviceBuffer<int32_t> di(topk.ids), ds(r.max_rows()), dt(r.max_tiles()), dp(r.pairs()), dn(1);
  print_launch(config);
  ::moe_align<<<to_dim3(config.grid), to_dim3(config.block), config.dynamic_shared_bytes>>>(
      di.get(), ds.get(), dt.get(), dp.get(), dn.get(), r.pairs(), r.local(), r.max_rows(),
      r.first_expert);
  finish_launch();
  const bool ok = ds.download() == want.sorted_ids && dt.download() == want.tile_experts &&
                  dp.download() == want.pair_rows && dn.download()[0] == want.total;
  std::printf("moe_align: %d padded rows; the outputs %s the CPU reference\n", want.total,
              ok ? "match" : "differ from");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"moe_topk_softmax", "moe_align"}, run);
}
