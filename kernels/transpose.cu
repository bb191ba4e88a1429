// transpose_naive, transpose_shared, transpose_padded: see transpose.h.
#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/transpose.h"
#include "kernels/values.h"

namespace {

constexpr uint32_t kTile = sassim::kernels::transpose::kTile;
constexpr uint32_t kBlockRows = sassim::kernels::transpose::kBlockRows;

// Tile through shared memory whose rows are kTile + kPad floats long.
template <uint32_t kPad>
__device__ __forceinline__ void transpose_tile(const float* __restrict__ in,
                                               float* __restrict__ out, uint32_t rows,
                                               uint32_t cols) {
  __shared__ float tile[kTile][kTile + kPad];
  uint32_t x = blockIdx.x * kTile + threadIdx.x;
  uint32_t y = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
  for (uint32_t j = 0; j < kTile; j += kBlockRows)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
#pragma unroll
  for (uint32_t j = 0; j < kTile; j += kBlockRows)
    out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

}  // namespace

extern "C" __global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out,
                                           uint32_t rows, uint32_t cols) {
  const uint32_t x = blockIdx.x * kTile + threadIdx.x;
  const uint32_t y = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
  for (uint32_t j = 0; j < kTile; j += kBlockRows) out[x * rows + y + j] = in[(y + j) * cols + x];
}

extern "C" __global__ void transpose_shared(const float* __restrict__ in, float* __restrict__ out,
                                            uint32_t rows, uint32_t cols) {
  transpose_tile<0>(in, out, rows, cols);
}

extern "C" __global__ void transpose_padded(const float* __restrict__ in, float* __restrict__ out,
                                            uint32_t rows, uint32_t cols) {
  transpose_tile<1>(in, out, rows, cols);
}

namespace {

bool run(std::string_view kernel, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = transpose::parse_problem(values);
  const Launch config = transpose::launch(kernel, problem);
  const size_t count = size_t{problem.rows} * problem.cols;
  std::vector<float> in(count), want(count);
  fill_dyadic(in, 1);
  transpose::reference(problem, in, want);
  DeviceBuffer<float> din(in), dout(count);
  auto* function = kernel == transpose::kNaiveKernel    ? transpose_naive
                   : kernel == transpose::kSharedKernel ? transpose_shared
                                                        : transpose_padded;
  print_launch(config);
  function<<<to_dim3(config.grid), to_dim3(config.block)>>>(din.get(), dout.get(), problem.rows,
                                                            problem.cols);
  finish_launch();
  return check_close(dout.download(), want, 0, 0, kernel);
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(
      argc, argv, {"transpose_naive", "transpose_shared", "transpose_padded"}, run);
}
