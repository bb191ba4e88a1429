// The device code of the warp-specialised GEMM (kernels/gemm_ws.h), for a wgmma shape
// `Mma` (an m64n256 with 32 bytes of K: Fp8Mma or Bf16Mma). Needs sm_90a; the host side
// is kernels/tma_host.cuh.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "kernels/gemm_ws.h"
#include "kernels/hopper_sm90a.cuh"

namespace sassim::kernels::gemm_ws {

struct Fp8Mma {  // E4M3 x E4M3: 32 elements of K
  static constexpr uint32_t kElementBytes = 1;
  __device__ static void run(float (&acc)[128], uint64_t a, uint64_t b) {
    sm90a::wgmma_m64n256k32_e4m3(acc, a, b);
  }
};
struct Bf16Mma {  // BF16 x BF16: 16 elements of K
  static constexpr uint32_t kElementBytes = 2;
  __device__ static void run(float (&acc)[128], uint64_t a, uint64_t b) {
    sm90a::wgmma_m64n256k16_bf16(acc, a, b);
  }
};

// C (M x N, FP32) = (A * B^T) * scale over K elements, for the CTA's tile of the launch
// gemm_ws::launch describes.
template <class Mma>
__device__ __forceinline__ void gemm(const CUtensorMap* a_map, const CUtensorMap* bt_map,
                                     float* __restrict__ c, float scale, uint32_t n, uint32_t k) {
  using namespace sm90a;
  constexpr uint32_t kTileK = kTileKBytes / Mma::kElementBytes;  // elements of K a stage
  constexpr uint32_t kTileABytes = kTileM * kTileKBytes;
  constexpr uint32_t kConsumerRows = kTileM / kConsumers;  // 64: one wgmma's M
  extern __shared__ unsigned char shared_raw[];
  __shared__ __align__(8) uint64_t full[kStages];   // the stage's bytes have landed
  __shared__ __align__(8) uint64_t empty[kStages];  // every consumer warp is done with it
  const uint32_t tiles = (shared_address(shared_raw) + 1023) & ~1023U;  // stage s: A, then Bt
  const uint32_t warpgroup = threadIdx.x / 128;
  const uint32_t warp = (threadIdx.x / 32) % 4;  // within its warpgroup
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t rank = cluster_rank();  // the CTAs of a cluster share the tile's B
  // The tile of this CTA: clusters (pairs of 128-row tiles sharing a 256-column tile) in
  // launch order walk a group of kGroupPairs pairs down, then the next column, so that
  // the CTAs resident together read a few MiB of A and B rather than all of B.
  const uint32_t pairs = gridDim.y / kClusterM;
  const uint32_t cluster = blockIdx.x + gridDim.x * (blockIdx.y / kClusterM);
  const uint32_t group = cluster / (kGroupPairs * gridDim.x);
  const uint32_t in_group = cluster % (kGroupPairs * gridDim.x);
  const uint32_t group_pairs = min(kGroupPairs, pairs - group * kGroupPairs);
  const uint32_t pair = group * kGroupPairs + in_group % group_pairs;
  const int32_t row0 = static_cast<int32_t>((pair * kClusterM + rank) * kTileM);
  const int32_t col0 = static_cast<int32_t>(in_group / group_pairs * kTileN);
  const uint32_t k_tiles = k / kTileK;

  if (threadIdx.x == 0) {
    for (uint32_t s = 0; s < kStages; ++s) {
      mbarrier_init(shared_address(&full[s]), 1);
      // The computing warps of every CTA of the cluster: each reads the B rows all of
      // their loads bring.
      mbarrier_init(shared_address(&empty[s]), kClusterM * kConsumers * 4);
    }
    fence_barrier_init();
  }
  cluster_sync();  // every CTA's mbarriers are set up before any copy or arrive reaches them

  if (warpgroup == 0) {
    // The producer: one thread fills the ring, each stage once the consumers of every
    // CTA of the cluster freed it: its A rows, and its share of B rows for all the CTAs.
    if (threadIdx.x == 0) {
      const uint32_t b_share = kTileN / kClusterM;  // B rows this CTA loads
      for (uint32_t kt = 0; kt < k_tiles; ++kt) {
        const uint32_t stage = kt % kStages;
        if (kt >= kStages) {
          mbarrier_wait(shared_address(&empty[stage]), (kt / kStages - 1) % 2);
        }
        const uint32_t bar = shared_address(&full[stage]);
        const uint32_t dst = tiles + stage * kStageBytes;
        const auto k0 = static_cast<int32_t>(kt * kTileK);  // in elements
        mbarrier_arrive_expect_tx(bar, kStageBytes);
        tma_load_2d(dst, a_map, bar, k0, row0);
        tma_load_2d_multicast(dst + kTileABytes + rank * b_share * kTileKBytes, bt_map, bar, k0,
                              col0 + static_cast<int32_t>(rank * b_share),
                              static_cast<uint16_t>((1U << kClusterM) - 1));
      }
    }
    cluster_sync();  // no CTA leaves while another may still arrive on its mbarriers
    return;
  }

  // A consumer: 64 rows of the tile by all 256 columns.
  const uint32_t consumer = warpgroup - 1;
  float acc[128] = {};
  for (uint32_t kt = 0; kt < k_tiles; ++kt) {
    const uint32_t stage = kt % kStages;
    mbarrier_wait(shared_address(&full[stage]), (kt / kStages) % 2);
    const uint32_t a_tile = tiles + stage * kStageBytes + consumer * kConsumerRows * kTileKBytes;
    const uint32_t b_tile = tiles + stage * kStageBytes + kTileABytes;
    wgmma_fence();
#pragma unroll
    for (uint32_t kk = 0; kk < kTileKBytes / 32; ++kk) {
      // One wgmma takes 32 bytes of K along the (swizzled) 128-byte row.
      Mma::run(acc, smem_descriptor_sw128(a_tile + kk * 32),
               smem_descriptor_sw128(b_tile + kk * 32));
    }
    wgmma_commit();
    wgmma_wait<1>();  // this warp's group of tile kt - 1 has retired: its stage is free
    if (kt > 0 && lane == 0) {
      const uint32_t freed = shared_address(&empty[(kt - 1) % kStages]);
      for (uint32_t r = 0; r < kClusterM; ++r) mbarrier_arrive_cluster(cluster_address(freed, r));
    }
  }
  wgmma_wait<0>();

  // Accumulator i of a thread: row 16 warp + lane / 4 (+ 8 when i % 4 >= 2), column
  // 8 (i / 4) + 2 (lane % 4) + i % 2.
  const uint32_t row =
      static_cast<uint32_t>(row0) + consumer * kConsumerRows + warp * 16 + lane / 4;
#pragma unroll
  for (uint32_t j = 0; j < kTileN / 8; ++j) {
    const uint32_t col = static_cast<uint32_t>(col0) + j * 8 + (lane % 4) * 2;
    *reinterpret_cast<float2*>(&c[size_t{row} * n + col]) =
        make_float2(acc[4 * j] * scale, acc[4 * j + 1] * scale);
    *reinterpret_cast<float2*>(&c[size_t{row + 8} * n + col]) =
        make_float2(acc[4 * j + 2] * scale, acc[4 * j + 3] * scale);
  }
  cluster_sync();
}

}  // namespace sassim::kernels::gemm_ws
