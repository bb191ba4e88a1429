// sgemm_tiled: see sgemm.h.
#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/sgemm.h"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::sgemm;

}  // namespace

extern "C" __global__ void __launch_bounds__(256)
    sgemm_tiled(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                uint32_t m, uint32_t n, uint32_t k, float alpha, float beta) {
  // a_tile[kk][row]: A transposed, so the four rows of a thread are contiguous.
  __shared__ float a_tile[cfg::kTileK][cfg::kTileM];
  __shared__ float b_tile[cfg::kTileK][cfg::kTileN];
  const uint32_t tx = threadIdx.x;
  const uint32_t ty = threadIdx.y;
  const uint32_t tid = ty * cfg::kThreadsX + tx;
  const uint32_t row0 = blockIdx.y * cfg::kTileM;
  const uint32_t col0 = blockIdx.x * cfg::kTileN;
  (void)m;

  float acc[cfg::kMicro][cfg::kMicro] = {};
  for (uint32_t k0 = 0; k0 < k; k0 += cfg::kTileK) {
    // 1024 floats of each tile, 4 per thread: A by (row, kk) with kk fastest, B by row.
#pragma unroll
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t e = tid + i * 256;
      const uint32_t a_row = e / cfg::kTileK;
      const uint32_t a_col = e % cfg::kTileK;
      a_tile[a_col][a_row] = a[(row0 + a_row) * k + k0 + a_col];
      const uint32_t b_row = e / cfg::kTileN;
      const uint32_t b_col = e % cfg::kTileN;
      b_tile[b_row][b_col] = b[(k0 + b_row) * n + col0 + b_col];
    }
    __syncthreads();
#pragma unroll
    for (uint32_t kk = 0; kk < cfg::kTileK; ++kk) {
      float a_frag[cfg::kMicro];
      float b_frag[cfg::kMicro];
#pragma unroll
      for (uint32_t i = 0; i < cfg::kMicro; ++i) {
        a_frag[i] = a_tile[kk][ty + 16 * i];
        b_frag[i] = b_tile[kk][tx + 16 * i];
      }
#pragma unroll
      for (uint32_t i = 0; i < cfg::kMicro; ++i) {
#pragma unroll
        for (uint32_t j = 0; j < cfg::kMicro; ++j)
          acc[i][j] = __fmaf_rn(a_frag[i], b_frag[j], acc[i][j]);
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (uint32_t i = 0; i < cfg::kMicro; ++i) {
#pragma unroll
    for (uint32_t j = 0; j < cfg::kMicro; ++j) {
      float& out = c[(row0 + ty + 16 * i) * n + col0 + tx + 16 * j];
      out = __fmaf_rn(alpha, acc[i][j], __fmul_rn(beta, out));
    }
  }
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = sgemm::parse_problem(values);
  const Launch config = sgemm::launch(problem);
  std::vector<float> a(size_t{problem.m} * problem.k), b(size_t{problem.k} * problem.n),
      c(size_t{problem.m} * problem.n);
  fill_dyadic(a, 1);
  fill_dyadic(b, 2);
  fill_dyadic(c, 3);
  DeviceBuffer<float> da(a), db(b), dc(c);
  sgemm::reference(problem, a, b, c, sgemm::kAlpha, sgemm::kBeta);
  print_launch(config);
  sgemm_tiled<<<to_dim3(config.grid), to_dim3(config.block)>>>(
      da.get(), db.get(), dc.get(), problem.m, problem.n, problem.k, sgemm::kAlpha, sgemm::kBeta);
  finish_launch();
  return check_close(dc.download(), c, 0, 0, "sgemm_tiled");
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"sgemm_tiled"}, run);
}
