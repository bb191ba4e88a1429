// bf16_gemm_wgmma: see bf16_gemm_wgmma.h. Device code needs sm_90a (wgmma).
#include <cuda.h>

#include <cstdint>

#include "kernels/bf16_gemm_wgmma.h"
#include "kernels/cuda_host.cuh"
#include "kernels/hopper_sm90a.cuh"
#include "kernels/tma_host.cuh"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::bf16_gemm_wgmma;
using namespace sassim::kernels::sm90a;

constexpr uint32_t kTileABytes = cfg::kTileM * cfg::kTileK * 2;
constexpr uint32_t kHalfTileABytes = kTileABytes / 2;  // 64 rows: one wgmma's A

}  // namespace

extern "C" __global__ void __launch_bounds__(128)
    bf16_gemm_wgmma(const __grid_constant__ CUtensorMap a_map,
                    const __grid_constant__ CUtensorMap bt_map, float* __restrict__ c, uint32_t m,
                    uint32_t n, uint32_t k) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char shared_raw[];
  __shared__ __align__(8) uint64_t full[cfg::kStages];
  const uint32_t tiles = (shared_address(shared_raw) + 1023) & ~1023U;  // stage s: A, then Bt
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t warp = threadIdx.x / 32;
  const int32_t row0 = static_cast<int32_t>(blockIdx.y * cfg::kTileM);
  const int32_t col0 = static_cast<int32_t>(blockIdx.x * cfg::kTileN);
  const uint32_t k_tiles = k / cfg::kTileK;
  (void)m;

  auto issue = [&](uint32_t stage, uint32_t k_tile) {
    const uint32_t bar = shared_address(&full[stage]);
    const uint32_t dst = tiles + stage * cfg::kStageBytes;
    const auto k0 = static_cast<int32_t>(k_tile * cfg::kTileK);
    mbarrier_arrive_expect_tx(bar, cfg::kStageBytes);
    tma_load_2d(dst, &a_map, bar, k0, row0);
    tma_load_2d(dst + kTileABytes, &bt_map, bar, k0, col0);
  };

  if (threadIdx.x == 0) {
    for (uint32_t s = 0; s < cfg::kStages; ++s) mbarrier_init(shared_address(&full[s]), 1);
    fence_barrier_init();
    for (uint32_t s = 0; s < cfg::kStages && s < k_tiles; ++s) issue(s, s);
  }
  __syncthreads();

  float acc[2][64] = {};  // rows 0-63 and 64-127 of the tile
  for (uint32_t kt = 0; kt < k_tiles; ++kt) {
    const uint32_t stage = kt % cfg::kStages;
    mbarrier_wait(shared_address(&full[stage]), (kt / cfg::kStages) % 2);
    const uint32_t a_tile = tiles + stage * cfg::kStageBytes;
    const uint32_t b_tile = a_tile + kTileABytes;
    wgmma_fence();
#pragma unroll
    for (uint32_t kk = 0; kk < cfg::kTileK / 16; ++kk) {
      // 16 BF16 of K are 32 bytes along the (swizzled) 128-byte row.
      const uint64_t desc_b = smem_descriptor_sw128(b_tile + kk * 32);
      wgmma_m64n128k16(acc[0], smem_descriptor_sw128(a_tile + kk * 32), desc_b);
      wgmma_m64n128k16(acc[1], smem_descriptor_sw128(a_tile + kHalfTileABytes + kk * 32), desc_b);
    }
    wgmma_commit();
    wgmma_wait<1>();  // the group of tile kt - 1 has retired in this warp...
    __syncthreads();  // ...and in every warp: its stage can be refilled
    if (threadIdx.x == 0 && kt > 0 && kt - 1 + cfg::kStages < k_tiles) {
      issue((kt - 1) % cfg::kStages, kt - 1 + cfg::kStages);
    }
  }
  wgmma_wait<0>();

  // Accumulator i of a thread: row 16 warp + lane / 4 (+ 8 when i % 4 >= 2), column
  // 8 (i / 4) + 2 (lane % 4) + i % 2.
#pragma unroll
  for (uint32_t half = 0; half < 2; ++half) {
    const uint32_t row = static_cast<uint32_t>(row0) + half * 64 + warp * 16 + lane / 4;
#pragma unroll
    for (uint32_t j = 0; j < 16; ++j) {
      const uint32_t col = static_cast<uint32_t>(col0) + j * 8 + (lane % 4) * 2;
      *reinterpret_cast<float2*>(&c[size_t{row} * n + col]) =
          make_float2(acc[half][4 * j], acc[half][4 * j + 1]);
      *reinterpret_cast<float2*>(&c[size_t{row + 8} * n + col]) =
          make_float2(acc[half][4 * j + 2], acc[half][4 * j + 3]);
    }
  }
#else
  // Built for an architecture without wgmma: this kernel cannot run there.
  (void)a_map, (void)bt_map, (void)c, (void)m, (void)n, (void)k;
  __trap();
#endif
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto problem = cfg::parse_problem(values);
  if (!has_sm90("bf16_gemm_wgmma")) return false;
  std::vector<uint16_t> a(size_t{problem.m} * problem.k), bt(size_t{problem.n} * problem.k);
  std::vector<float> want(size_t{problem.m} * problem.n);
  fill_dyadic_bf16(a, 1);
  fill_dyadic_bf16(bt, 2);
  cfg::reference(problem, a, bt, want);
  return run_tma_gemm("bf16_gemm_wgmma", ::bf16_gemm_wgmma, cfg::launch(problem), problem,
                      CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, cfg::kTileM, cfg::kTileN, a, bt, want,
                      problem.m, problem.n, problem.k);
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"bf16_gemm_wgmma"}, run);
}
