// fp8_gemm_wgmma (sm_90a only): C = (A * B^T) * scale_a * scale_b with E4M3 inputs, FP32
// accumulation and FP32 output, per-tensor FP32 scales as kernel parameters (the
// "QGMMA path" of FP8 inference), structured as Hopper's warp-specialised GEMMs are:
//   - A is M x K row-major, Bt is N x K row-major (both K-major: 8-bit wgmma reads no
//     other layout), C is M x N FP32;
//   - a CTA computes a 128 x 256 tile with three warpgroups: the first loads (one thread
//     issues the TMA loads, the others wait at the end), the other two compute 64 rows each by all
//     256 columns, one wgmma.mma_async.m64n256k32.f32.e4m3.e4m3 per 32 of K, operands
//     read from shared memory through matrix descriptors (128-byte swizzle), 128
//     accumulators a thread;
//   - K advances 128 at a time (128 bytes of E4M3: one swizzle row) through a 4-stage
//     ring in dynamic shared memory (4 x 48 KiB: A's 128 rows, then Bt's 256) with two
//     mbarriers a stage: `full`, completed by the TMA's bytes (expect_tx), and `empty`,
//     completed when each computing warp has retired the wgmma that read the
//     stage (wgmma.wait_group 1 after the next stage's, then an arrive); the loading
//     thread refills a stage once it is empty, so up to 4 stages are in flight while the
//     tensor cores work;
//   - the epilogue multiplies each accumulator by scale_a * scale_b (one FMUL);
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
// A 128 x 256 tile reads 48 KiB of operands for 8.4 M FLOP a stage (171 FLOP a byte;
// the 128 x 128 tile of bf16_gemm_wgmma at FP8 would be 128), the largest one SM's
// registers hold; sharing B across the pair makes it 32 KiB from the L2 (256 FLOP a byte).
// The output is FP32, as bf16_gemm_wgmma's, and the result is checked bit for bit without
// a rounding step (a BF16 output would add F2FP.BF16 and halve C's bytes).
// SASS: UTMALDG.2D (.MULTICAST), SYNCS.* (mbarriers), UCGABAR_ARV / UCGABAR_WAIT,
// QGMMA.64x256x32.F32.E4M3.E4M3, WARPGROUP.ARRIVE, WARPGROUP.DEPBAR, FMUL.
#pragma once

#include <span>

#include "kernels/gemm_problem.h"
#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::fp8_gemm_wgmma {

inline constexpr std::string_view kKernel = "fp8_gemm_wgmma";
inline constexpr uint32_t kTileM = 128;
inline constexpr uint32_t kTileN = 256;
inline constexpr uint32_t kTileK = 128;  // 128 bytes of E4M3: one swizzle row
inline constexpr uint32_t kStages = 4;
inline constexpr uint32_t kConsumers = 2;                     // warpgroups computing the tile
inline constexpr uint32_t kThreads = 128 * (1 + kConsumers);  // and one loading it
inline constexpr uint32_t kClusterM = 2;  // CTAs of a cluster (along M) sharing the B tile
// Clusters walk this many pairs of row tiles (2,048 rows) down before the next column
// tile: 66 clusters, one wave on 132 SMs, then read about 8 column tiles of B.
inline constexpr uint32_t kGroupPairs = 8;
inline constexpr uint32_t kStageBytes = (kTileM + kTileN) * kTileK;
// The stages, plus slack to align them to 1024 bytes (the swizzle pattern's period).
inline constexpr uint32_t kSharedBytes = kStages * kStageBytes + 1024;
// The per-tensor scales the suite passes: powers of two, so that scaling is exact and
// the result stays bit-comparable with the reference.
inline constexpr float kScaleA = 0.5F;
inline constexpr float kScaleB = 0.25F;

using Problem = GemmProblem;

// Values: [M [N [K]]]; M a multiple of 256 (two CTAs' rows), N of 256, K of 128; N and K
// default to M.
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l{.kernel = kKernel,
           .grid = {p.n / kTileN, p.m / kTileM},
           .block = {kThreads},
           .dynamic_shared_bytes = kSharedBytes,
           .cluster = {1, kClusterM, 1}};
  // As the program's cuTensorMapEncodeTiled calls describe them (UINT8, 128-byte swizzle).
  l.add(tensor_map_arg("a_map", {p.m, p.k, 1, kTileM, kTileK, 128}))
      .add(tensor_map_arg("bt_map", {p.n, p.k, 1, kTileN / kClusterM, kTileK, 128}))
      .add(buffer_arg("c", uint64_t{p.m} * p.n * 4, Access::kWrite))
      .add(f32_arg("scale_a", kScaleA))
      .add(f32_arg("scale_b", kScaleB))
      .add(u32_arg("m", p.m))
      .add(u32_arg("n", p.n))
      .add(u32_arg("k", p.k));
  return l;
}

// c[i][j] = (sum over k of a[i][k] * bt[j][k]) * (scale_a * scale_b), E4M3 bit patterns
// in, FP32 sums in k order. Exact, whatever the order, for the suite's inputs
// (fill_dyadic_e4m3: multiples of 1/8 in [-1, 1]; products are multiples of 1/64 and
// sums of up to 2^16 of them need at most 23 significant bits).
void reference(const Problem& p, std::span<const uint8_t> a, std::span<const uint8_t> bt,
               float scale_a, float scale_b, std::span<float> c);

}  // namespace sassim::kernels::fp8_gemm_wgmma
