// rmsnorm: see rmsnorm.h.
#include <cstdint>

#include "kernels/bf16_vec.cuh"
#include "kernels/cuda_host.cuh"
#include "kernels/rmsnorm.h"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::rmsnorm;
using sassim::kernels::bf16x8_to_float;
using sassim::kernels::float_to_bf16x8;
using sassim::kernels::round_bf16;

}  // namespace

extern "C" __global__ void __launch_bounds__(256)
    rmsnorm(const uint4* __restrict__ x, const uint4* __restrict__ w, uint4* __restrict__ y,
            uint32_t hidden, float eps) {
  __shared__ float warp_sums[cfg::kWarps];
  const uint32_t chunks = hidden / cfg::kChunk;
  const uint4* xr = x + static_cast<size_t>(blockIdx.x) * chunks;
  uint4* yr = y + static_cast<size_t>(blockIdx.x) * chunks;
  float sum = 0.0F;
  for (uint32_t c = threadIdx.x; c < chunks; c += cfg::kThreads) {
    float v[8];
    bf16x8_to_float(xr[c], v);
#pragma unroll
    for (int i = 0; i < 8; ++i) sum = __fmaf_rn(v[i], v[i], sum);
  }
#pragma unroll
  for (uint32_t offset = 16; offset > 0; offset /= 2)
    sum = __fadd_rn(sum, __shfl_xor_sync(0xffffffffU, sum, offset));
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  float total = 0.0F;
#pragma unroll
  for (uint32_t i = 0; i < cfg::kWarps; ++i) total = __fadd_rn(total, warp_sums[i]);
  const float r = rsqrtf(__fmaf_rn(total, __fdividef(1.0F, static_cast<float>(hidden)), eps));
  for (uint32_t c = threadIdx.x; c < chunks; c += cfg::kThreads) {
    float v[8], g[8];
    bf16x8_to_float(xr[c], v);
    bf16x8_to_float(w[c], g);
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] = __fmul_rn(round_bf16(__fmul_rn(v[i], r)), g[i]);
    yr[c] = float_to_bf16x8(v);
  }
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = cfg::parse_problem(values);
  const Launch config = cfg::launch(problem);
  std::vector<uint16_t> hx(size_t{problem.tokens} * problem.hidden), hw(problem.hidden);
  fill_dyadic_bf16(hx, 1);
  fill_dyadic_bf16(hw, 2);
  std::vector<uint16_t> want(hx.size());
  cfg::reference(problem, hx, hw, want);
  DeviceBuffer<uint16_t> dx(hx), dw(hw), dy(hx.size());
  print_launch(config);
  ::rmsnorm<<<to_dim3(config.grid), to_dim3(config.block)>>>(
      reinterpret_cast<const uint4*>(dx.get()), reinterpret_cast<const uint4*>(dw.get()),
      reinterpret_cast<uint4*>(dy.get()), problem.hidden, cfg::kEps);
  finish_launch();
  return check_close(bf16_to_floats(dy.download()), bf16_to_floats(want), cfg::kGpuTolerance, 0,
                     "rmsnorm");
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"rmsnorm"}, run);
}
