// moe_permute and moe_unpermute: see moe_gather.h.
#include <cstdint>

#include "kernels/bf16_vec.cuh"
#include "kernels/cuda_host.cuh"
#include "kernels/moe_gather.h"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::moe;
using sassim::kernels::bf16x8_to_float;
using sassim::kernels::float_to_bf16x8;

}  // namespace

extern "C" __global__ void __launch_bounds__(128)
    moe_permute(const uint4* __restrict__ x, const int32_t* __restrict__ sorted_ids,
                const int32_t* __restrict__ total, uint4* __restrict__ rows, uint32_t hidden,
                uint32_t top_k, uint32_t pairs) {
  const uint32_t row = blockIdx.x;
  if (static_cast<int32_t>(row) >= *total) return;
  const uint32_t chunks = hidden / cfg::kGatherChunk;
  const uint32_t pair = static_cast<uint32_t>(sorted_ids[row]);
  uint4* dst = rows + static_cast<size_t>(row) * chunks;
  if (pair >= pairs) {
    for (uint32_t c = threadIdx.x; c < chunks; c += cfg::kGatherThreads)
      dst[c] = make_uint4(0, 0, 0, 0);
    return;
  }
  const uint4* src = x + static_cast<size_t>(pair / top_k) * chunks;
  for (uint32_t c = threadIdx.x; c < chunks; c += cfg::kGatherThreads) dst[c] = src[c];
}

extern "C" __global__ void __launch_bounds__(128)
    moe_unpermute(const float4* __restrict__ c, const int32_t* __restrict__ pair_rows,
                  const float* __restrict__ weights, const uint4* __restrict__ residual,
                  uint4* __restrict__ out, uint32_t hidden, uint32_t top_k) {
  const uint32_t t = blockIdx.x;
  const uint32_t chunks = hidden / cfg::kGatherChunk;
  for (uint32_t j = threadIdx.x; j < chunks; j += cfg::kGatherThreads) {
    float acc[8] = {};
    for (uint32_t s = 0; s < top_k; ++s) {
      const size_t pair = static_cast<size_t>(t) * top_k + s;
      const float w = weights[pair];
      const float4* src = c + static_cast<size_t>(pair_rows[pair]) * (hidden / 4) + 2 * j;
      const float4 a = src[0], b = src[1];
      const float v[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
#pragma unroll
      for (int i = 0; i < 8; ++i) acc[i] = __fmaf_rn(w, v[i], acc[i]);
    }
    float r[8];
    bf16x8_to_float(residual[static_cast<size_t>(t) * chunks + j], r);
#pragma unroll
    for (int i = 0; i < 8; ++i) acc[i] = __fadd_rn(acc[i], r[i]);
    out[static_cast<size_t>(t) * chunks + j] = float_to_bf16x8(acc);
  }
}

namespace {

bool run(std::string_view kernel, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const cfg::Gather g = cfg::parse_gather(values, kernel);
  const cfg::Routing& r = g.routing;
  const cfg::TopK topk = cfg::example_topk(r);
  const cfg::Alignment al = cfg::align_reference(r, topk.ids);
  if (kernel == cfg::kPermuteKernel) {
    const Launch config = cfg::permute_launch(g);
    std::vector<uint16_t> x(size_t{r.tokens} * g.hidden), want(size_t{r.max_rows()} * g.hidden);
    fill_dyadic_bf16(x, 1);
    cfg::permute_reference(g, x, al.sorted_ids, al.total, want);
    DeviceBuffer<uint16_t> dx(x), drows(want.size());
    DeviceBuffer<int32_t> ds(al.sorted_ids), dn(std::vector<int32_t>{al.total});
    print_launch(config);
    ::moe_permute<<<to_dim3(config.grid), to_dim3(config.block)>>>(
        reinterpret_cast<const uint4*>(dx.get()), ds.get(), dn.get(),
        reinterpret_cast<uint4*>(drows.get()), g.hidden, r.top_k, r.pairs());
    finish_launch();
    return check_close(bf16_to_floats(drows.download()), bf16_to_floats(want), 0, 0, kernel);
  }
  const Launch config = cfg::unpermute_launch(g);
  std::vector<float> c(size_t{r.max_rows()} * g.hidden);
  fill_dyadic(c, 2);
  std::vector<uint16_t> res(size_t{r.tokens} * g.hidden), want(res.size());
  fill_dyadic_bf16(res, 3);
  cfg::unpermute_reference(g, c, al.pair_rows, topk.weights, res, want);
  DeviceBuffer<float> dc(c), dw(topk.weights);
  DeviceBuffer<int32_t> dp(al.pair_rows);
  DeviceBuffer<uint16_t> dres(res), dout(want.size());
  print_launch(config);
  ::moe_unpermute<<<to_dim3(config.grid), to_dim3(config.block)>>>(
      reinterpret_cast<const float4*>(dc.get()), dp.get(), dw.get(),
      reinterpret_cast<const uint4*>(dres.get()), reinterpret_cast<uint4*>(dout.get()), g.hidden,
      r.top_k);
  finish_launch();
  return check_close(bf16_to_floats(dout.download()), bf16_to_floats(want), 0, 0, kernel);
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"moe_permute", "moe_unpermute"}, run);
}
