// moe_grouped_gemm: see moe_grouped_gemm.h.
#include <cuda_bf16.h>

#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/mma_bf16_sm80.cuh"
#include "kernels/mma_sm80.cuh"
#include "kernels/moe_grouped_gemm.h"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::moe;
using namespace sassim::kernels::sm80;

constexpr uint32_t kRowBytes = cfg::kGemmTileK * 2;  // 64: four 16-byte chunks
constexpr uint32_t kTileABytes = cfg::kRowTile * kRowBytes;

// Byte offset of 16-byte chunk `chunk` of row `row` in a swizzled tile.
__device__ __forceinline__ uint32_t swizzle(uint32_t row, uint32_t chunk) {
  return row * kRowBytes + ((chunk ^ ((row >> 1) & 3)) << 4);
}

// Copies the 64 x 32 tiles of A and W at k0 into one stage: 512 chunks, 4 per thread.
__device__ __forceinline__ void load_stage(uint32_t stage, const __nv_bfloat16* a,
                                           const __nv_bfloat16* w, uint32_t k, uint32_t k0) {
#pragma unroll
  for (uint32_t i = 0; i < 2; ++i) {
    const uint32_t index = threadIdx.x + i * cfg::kGemmThreads;
    const uint32_t row = index / 4;
    const uint32_t chunk = index % 4;
    cp_async_16(stage + swizzle(row, chunk), a + static_cast<size_t>(row) * k + k0 + chunk * 8);
    cp_async_16(stage + kTileABytes + swizzle(row, chunk),
                w + static_cast<size_t>(row) * k + k0 + chunk * 8);
  }
}

}  // namespace

extern "C" __global__ void __launch_bounds__(128)
    moe_grouped_gemm(const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ w,
                     float* __restrict__ c, const int32_t* __restrict__ tile_experts,
                     const int32_t* __restrict__ total, uint32_t n, uint32_t k) {
  __shared__ __align__(128) unsigned char shared[cfg::kGemmStages * cfg::kGemmStageBytes];
  const uint32_t row0 = blockIdx.y * cfg::kRowTile;
  if (static_cast<int32_t>(row0) >= *total) return;
  const int32_t expert = tile_experts[blockIdx.y];
  if (expert < 0) return;
  const uint32_t col0 = blockIdx.x * cfg::kGemmTileN;
  const __nv_bfloat16* a_tile = a + static_cast<size_t>(row0) * k;
  const __nv_bfloat16* w_tile = w + (static_cast<size_t>(expert) * n + col0) * k;
  const uint32_t base = shared_address(shared);
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t warp = threadIdx.x / 32;
  const uint32_t warp_row = (warp / 2) * 32;
  const uint32_t warp_col = (warp % 2) * 32;
  const uint32_t k_tiles = k / cfg::kGemmTileK;

  float acc[2][4][4] = {};

#pragma unroll
  for (uint32_t s = 0; s + 1 < cfg::kGemmStages; ++s) {
    if (s < k_tiles)
      load_stage(base + s * cfg::kGemmStageBytes, a_tile, w_tile, k, s * cfg::kGemmTileK);
    cp_async_commit();
  }

  for (uint32_t kt = 0; kt < k_tiles; ++kt) {
    cp_async_wait<cfg::kGemmStages - 2>();  // tile kt has landed (this thread's part)
    __syncthreads();                        // everyone's part; and stage (kt - 1) % 3 is free
    const uint32_t next = kt + cfg::kGemmStages - 1;
    if (next < k_tiles) {
      load_stage(base + (next % cfg::kGemmStages) * cfg::kGemmStageBytes, a_tile, w_tile, k,
                 next * cfg::kGemmTileK);
    }
    cp_async_commit();

    const uint32_t stage_a = base + (kt % cfg::kGemmStages) * cfg::kGemmStageBytes;
    const uint32_t stage_b = stage_a + kTileABytes;
#pragma unroll
    for (uint32_t kk = 0; kk < cfg::kGemmTileK / 16; ++kk) {
      uint32_t a_frag[2][4];
      uint32_t b_frag[4][2];
#pragma unroll
      for (uint32_t mi = 0; mi < 2; ++mi) {
        const uint32_t row = warp_row + mi * 16 + lane % 16;
        ldmatrix_x4(a_frag[mi], stage_a + swizzle(row, kk * 2 + lane / 16));
      }
#pragma unroll
      for (uint32_t pair = 0; pair < 2; ++pair) {
        const uint32_t row = warp_col + pair * 16 + lane % 8 + (lane / 16) * 8;
        uint32_t r[4];
        ldmatrix_x4(r, stage_b + swizzle(row, kk * 2 + (lane / 8) % 2));
        b_frag[2 * pair][0] = r[0];
        b_frag[2 * pair][1] = r[1];
        b_frag[2 * pair + 1][0] = r[2];
        b_frag[2 * pair + 1][1] = r[3];
      }
#pragma unroll
      for (uint32_t mi = 0; mi < 2; ++mi) {
#pragma unroll
        for (uint32_t nj = 0; nj < 4; ++nj)
          mma_16816_bf16(acc[mi][nj], a_frag[mi], b_frag[nj][0], b_frag[nj][1]);
      }
    }
  }
  cp_async_wait<0>();

#pragma unroll
  for (uint32_t mi = 0; mi < 2; ++mi) {
#pragma unroll
    for (uint32_t nj = 0; nj < 4; ++nj) {
      const size_t row = row0 + warp_row + mi * 16 + lane / 4;
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
  const cfg::GroupedGemm g = cfg::parse_grouped_gemm(values);
  const cfg::Routing& r = g.routing;
  const cfg::Alignment al = cfg::align_reference(r, cfg::example_topk(r).ids);
  const Launch config = cfg::grouped_gemm_launch(g);
  std::vector<uint16_t> a(size_t{r.max_rows()} * g.k), w(size_t{r.experts} * g.n * g.k);
  fill_dyadic_bf16(a, 1);
  fill_dyadic_bf16(w, 2);
  std::vector<float> want(size_t{r.max_rows()} * g.n);
  cfg::grouped_gemm_reference(g, a, w, al.tile_experts, al.total, want);
  DeviceBuffer<uint16_t> da(a), dw(w);
  DeviceBuffer<float> dc(want.size());
  DeviceBuffer<int32_t> dt(al.tile_experts), dn(std::vector<int32_t>{al.total});
  print_launch(config);
  ::moe_grouped_gemm<<<to_dim3(config.grid), to_dim3(config.block)>>>(
      reinterpret_cast<const __nv_bfloat16*>(da.get()),
      reinterpret_cast<const __nv_bfloat16*>(dw.get()), dc.get(), dt.get(), dn.get(), g.n, g.k);
  finish_launch();
  return check_close(dc.download(), want, 0, 0, "moe_grouped_gemm");
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"moe_grouped_gemm"}, run);
}
