// hgemm_mma: see hgemm_mma.h.
#include <cuda_fp16.h>

#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/hgemm_mma.h"
#include "kernels/mma_sm80.cuh"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::hgemm_mma;
using namespace sassim::kernels::sm80;

constexpr uint32_t kRowBytes = cfg::kTileK * 2;  // 64: four 16-byte chunks
constexpr uint32_t kTileABytes = cfg::kTileM * kRowBytes;

// Byte offset of 16-byte chunk `chunk` of row `row` in a swizzled tile.
__device__ __forceinline__ uint32_t swizzle(uint32_t row, uint32_t chunk) {
  return row * kRowBytes + ((chunk ^ ((row >> 1) & 3)) << 4);
}

// Copies the 128 x 32 tiles of A and Bt at k0 into one stage: 1024 chunks, 8 per thread.
__device__ __forceinline__ void load_stage(uint32_t stage, const __half* a, const __half* bt,
                                           uint32_t row0, uint32_t col0, uint32_t k, uint32_t k0) {
#pragma unroll
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t index = threadIdx.x + i * cfg::kThreads;
    const uint32_t row = index / 4;
    const uint32_t chunk = index % 4;
    cp_async_16(stage + swizzle(row, chunk), a + (row0 + row) * k + k0 + chunk * 8);
    cp_async_16(stage + kTileABytes + swizzle(row, chunk), bt + (col0 + row) * k + k0 + chunk * 8);
  }
}

}  // namespace

extern "C" __global__ void __launch_bounds__(128)
    hgemm_mma(const __half* __restrict__ a, const __half* __restrict__ bt, float* __restrict__ c,
              uint32_t m, uint32_t n, uint32_t k) {
  extern __shared__ __align__(128) unsigned char shared[];
  const uint32_t base = shared_address(shared);
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t warp = threadIdx.x / 32;
  const uint32_t warp_row = (warp / 2) * 64;
  const uint32_t warp_col = (warp % 2) * 64;
  const uint32_t row0 = blockIdx.y * cfg::kTileM;
  const uint32_t col0 = blockIdx.x * cfg::kTileN;
  const uint32_t k_tiles = k / cfg::kTileK;
  (void)m;

  float acc[4][8][4] = {};

#pragma unroll
  for (uint32_t s = 0; s + 1 < cfg::kStages; ++s) {
    if (s < k_tiles) load_stage(base + s * cfg::kStageBytes, a, bt, row0, col0, k, s * cfg::kTileK);
    cp_async_commit();
  }

  for (uint32_t kt = 0; kt < k_tiles; ++kt) {
    cp_async_wait<cfg::kStages - 2>();  // tile kt has landed (this thread's part)
    __syncthreads();                    // everyone's part; and stage (kt - 1) % 3 is free
    const uint32_t next = kt + cfg::kStages - 1;
    if (next < k_tiles) {
      load_stage(base + (next % cfg::kStages) * cfg::kStageBytes, a, bt, row0, col0, k,
                 next * cfg::kTileK);
    }
    cp_async_commit();

    const uint32_t stage_a = base + (kt % cfg::kStages) * cfg::kStageBytes;
    const uint32_t stage_b = stage_a + kTileABytes;
#pragma unroll
    for (uint32_t kk = 0; kk < cfg::kTileK / 16; ++kk) {
      uint32_t a_frag[4][4];
      uint32_t b_frag[8][2];
#pragma unroll
      for (uint32_t mi = 0; mi < 4; ++mi) {
        const uint32_t row = warp_row + mi * 16 + lane % 16;
        ldmatrix_x4(a_frag[mi], stage_a + swizzle(row, kk * 2 + lane / 16));
      }
#pragma unroll
      for (uint32_t pair = 0; pair < 4; ++pair) {
        const uint32_t row = warp_col + pair * 16 + lane % 8 + (lane / 16) * 8;
        uint32_t r[4];
        ldmatrix_x4(r, stage_b + swizzle(row, kk * 2 + (lane / 8) % 2));
        b_frag[2 * pair][0] = r[0];
        b_frag[2 * pair][1] = r[1];
        b_frag[2 * pair + 1][0] = r[2];
        b_frag[2 * pair + 1][1] = r[3];
      }
#pragma unroll
      for (uint32_t mi = 0; mi < 4; ++mi) {
#pragma unroll
        for (uint32_t nj = 0; nj < 8; ++nj)
          mma_16816(acc[mi][nj], a_frag[mi], b_frag[nj][0], b_frag[nj][1]);
      }
    }
  }
  cp_async_wait<0>();

#pragma unroll
  for (uint32_t mi = 0; mi < 4; ++mi) {
#pragma unroll
    for (uint32_t nj = 0; nj < 8; ++nj) {
      const uint32_t row = row0 + warp_row + mi * 16 + lane / 4;
      const uint32_t col = col0 + warp_col + nj * 8 + (lane % 4) * 2;
      *reinterpret_cast<float2*>(&c[row * n + col]) = make_float2(acc[mi][nj][0], acc[mi][nj][1]);
      *reinterpret_cast<float2*>(&c[(row + 8) * n + col]) =
          make_float2(acc[mi][nj][2], acc[mi][nj][3]);
    }
  }
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = cfg::parse_problem(values);
  const Launch config = cfg::launch(problem);
  std::vector<uint16_t> a(size_t{problem.m} * problem.k), bt(size_t{problem.n} * problem.k);
  std::vector<float> want(size_t{problem.m} * problem.n);
  fill_dyadic_half(a, 1);
  fill_dyadic_half(bt, 2);
  cfg::reference(problem, a, bt, want);
  DeviceBuffer<uint16_t> da(a), dbt(bt);
  DeviceBuffer<float> dc(want.size());
  SASSIM_CUDA_CHECK(cudaFuncSetAttribute(::hgemm_mma, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(config.dynamic_shared_bytes)));
  print_launch(config);
  ::hgemm_mma<<<to_dim3(config.grid), to_dim3(config.block), config.dynamic_shared_bytes>>>(
      reinterpret_cast<const __half*>(da.get()), reinterpret_cast<const __half*>(dbt.get()),
      dc.get(), problem.m, problem.n, problem.k);
  finish_launch();
  return check_close(dc.download(), want, 0, 0, "hgemm_mma");
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"hgemm_mma"}, run);
}
