// reduce_sum: see reduction.h.
#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/reduction.h"
#include "kernels/values.h"

namespace {

constexpr uint32_t kWarps = sassim::kernels::reduction::kWarps;

__device__ __forceinline__ float warp_reduce(float value) {
#pragma unroll
  for (uint32_t offset = 16; offset > 0; offset /= 2)
    value += __shfl_down_sync(0xffffffffU, value, offset);
  return value;
}

}  // namespace

extern "C" __global__ void __launch_bounds__(256)
    reduce_sum(const float* __restrict__ input, float* __restrict__ partials, uint32_t n) {
  __shared__ float warp_sums[kWarps];
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t warp = threadIdx.x / 32;
  float sum = 0.0F;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    sum += input[i];
  sum = warp_reduce(sum);
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = warp_reduce(lane < kWarps ? warp_sums[lane] : 0.0F);
    if (lane == 0) partials[blockIdx.x] = sum;
  }
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = reduction::parse_problem(values);
  const Launch config = reduction::launch(problem);
  std::vector<float> input(problem.n);
  fill_dyadic(input, 1);
  DeviceBuffer<float> din(input), dpartials(problem.ctas);
  print_launch(config);
  reduce_sum<<<to_dim3(config.grid), to_dim3(config.block)>>>(din.get(), dpartials.get(),
                                                              problem.n);
  finish_launch();
  const std::vector<float> partials = dpartials.download();
  double total = 0;
  for (float p : partials) total += p;
  std::printf("reduce_sum: total %.9g, exact %.9g\n", total, reduction::exact_sum(input));
  return check_close(partials, reduction::reference_partials(problem, input), 0, 0,
                     "reduce_sum partials");
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"reduce_sum"}, run);
}
