// The warp-specialised Hopper GEMM of fp8_gemm_wgmma (E4M3) and bf16_gemm_ws (BF16):
// C = A * B^T (times a scale), FP32 accumulation and output, as CUTLASS's sm_90 GEMMs are
// built (kernels/gemm_ws.cuh has the device code):
//   - A is M x K row-major, Bt is N x K row-major (both K-major), C is M x N FP32;
//   - a CTA computes a 128 x 256 tile with three warpgroups: the first loads (one thread
//     issues the TMA loads, the others wait at the end), the other two compute 64 rows each by all
//     256 columns, one wgmma.mma_async.m64n256 per 32 bytes of K, operands
//     read from shared memory through matrix descriptors (128-byte swizzle), 128
//     accumulators a thread;
//   - K advances 128 bytes at a time (one swizzle row) through a 4-stage
//     ring in dynamic shared memory (4 x 48 KiB: A's 128 rows, then Bt's 256) with two
//     mbarriers a stage: `full`, completed by the TMA's bytes (expect_tx), and `empty`,
//     completed when each computing warp has retired the wgmma that read the
//     stage (wgmma.wait_group 1 after the next stage's, then an arrive); the loading
//     thread refills a stage once it is empty, so up to 4 stages are in flight while the
//     tensor cores work;
//   - the epilogue multiplies each accumulator by a scale (FP8's per-tensor scales);
//   - the CTAs run in clusters of two along M (__cluster_dims__(1, 2, 1)) that share the
//     B tile: each CTA loads its 128 A rows and 128 of the 256 B rows by TMA multicast
//     into both CTAs' stage, so a stage's `full` barrier expects 48 KiB, of which 16 KiB
//     come from the other CTA, and its `empty` barrier waits for the 16 computing warps
//     of both CTAs (each arrives on both, SYNCS.ARRIVE.TRANS64.RED); a cluster barrier
//     before the loop (every mbarrier set up) and at the end (no CTA leaves while the
//     other may still arrive on its barriers);
//   - the clusters, in launch order, walk kGroupPairs pairs of row tiles down before
//     the next column tile, so that one wave of CTAs reads a few MiB of A and B instead
//     of all of B (an 8192^3 problem's B alone is 64 MiB, more than an H200's L2).
// A 128 x 256 tile reads 48 KiB of operands a stage, 171 FLOP a byte at FP8 (85 at BF16;
// bf16_gemm_wgmma's 128 x 128 tile: 64), the largest tile one SM's registers hold; sharing
// B across the pair makes it 32 KiB from the L2.
#pragma once

#include <string_view>

#include "kernels/gemm_problem.h"
#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::gemm_ws {

inline constexpr uint32_t kTileM = 128;
inline constexpr uint32_t kTileN = 256;
inline constexpr uint32_t kTileKBytes = 128;  // one swizzle row of K a stage
inline constexpr uint32_t kStages = 4;
inline constexpr uint32_t kConsumers = 2;                     // warpgroups computing the tile
inline constexpr uint32_t kThreads = 128 * (1 + kConsumers);  // and one loading it
inline constexpr uint32_t kClusterM = 2;  // CTAs of a cluster (along M) sharing the B tile
// Clusters walk this many pairs of row tiles (2,048 rows) down before the next column
// tile: 66 clusters, one wave on 132 SMs, then read about 8 column tiles of B.
inline constexpr uint32_t kGroupPairs = 8;
inline constexpr uint32_t kStageBytes = (kTileM + kTileN) * kTileKBytes;
// The stages, plus slack to align them to 1024 bytes (the swizzle pattern's period).
inline constexpr uint32_t kSharedBytes = kStages * kStageBytes + 1024;

// Values: [M [N [K]]]; M a multiple of 256 (a cluster's rows), N of 256, K of a stage's
// elements (128 / element_bytes); N and K default to M.
inline GemmProblem parse_problem(ParamValues values, std::string_view kernel,
                                 uint32_t element_bytes) {
  return parse_gemm_problem(values, kernel, kTileM * kClusterM, kTileN,
                            kTileKBytes / element_bytes);
}

// The launch of `kernel` over `p` with `element_bytes`-byte inputs: the tensor maps of A
// and Bt (each CTA loads half of the B tile's rows), C, then the caller's scalars.
constexpr Launch launch(std::string_view kernel, const GemmProblem& p, uint32_t element_bytes) {
  Launch l{.kernel = kernel,
           .grid = {p.n / kTileN, p.m / kTileM},
           .block = {kThreads},
           .dynamic_shared_bytes = kSharedBytes,
           .cluster = {1, kClusterM, 1}};
  const uint32_t box_cols = kTileKBytes / element_bytes;
  // As the programs' cuTensorMapEncodeTiled calls describe them (128-byte swizzle).
  l.add(tensor_map_arg("a_map", {p.m, p.k, element_bytes, kTileM, box_cols, 128}))
      .add(tensor_map_arg("bt_map", {p.n, p.k, element_bytes, kTileN / kClusterM, box_cols, 128}))
      .add(buffer_arg("c", uint64_t{p.m} * p.n * 4, Access::kWrite));
  return l;
}

}  // namespace sassim::kernels::gemm_ws
