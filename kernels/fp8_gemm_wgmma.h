// fp8_gemm_wgmma (sm_90a only): C = (A * B^T) * scale_a * scale_b with E4M3 inputs, FP32
// accumulation and FP32 output, per-tensor FP32 scales as kernel parameters (the
// "QGMMA path" of FP8 inference). The structure is bf16_gemm_wgmma's:
//   - A is M x K row-major, Bt is N x K row-major (both K-major: 8-bit wgmma reads no
//     other layout), C is M x N FP32;
//   - a CTA of one warpgroup (4 warps) computes a 128 x 128 tile as two
//     wgmma.mma_async.m64n128k32.f32.e4m3.e4m3 per 32 of K, operands read from shared
//     memory through matrix descriptors (128-byte swizzle), accumulators in registers;
//   - K advances 128 at a time (128 bytes of E4M3: one swizzle row) through a 4-stage
//     ring in dynamic shared memory (4 x 32 KiB) filled by TMA, one mbarrier per stage
//     completed by bytes (expect_tx); a stage is refilled once the wgmma group that read
//     it has retired (wgmma.wait_group 1);
//   - the epilogue multiplies each accumulator by scale_a * scale_b (one FMUL).
// The output is FP32, as bf16_gemm_wgmma's: the two kernels then move the same bytes
// out, so their rates compare the main loops, and the result is checked bit for bit
// without a rounding step (a BF16 output would add F2FP.BF16 and halve C's bytes, a
// few percent of the traffic at the suite's sizes).
// SASS: UTMALDG.2D, SYNCS.* (mbarrier), QGMMA.64x128x32.F32.E4M3.E4M3, WARPGROUP.ARRIVE,
// WARPGROUP.DEPBAR, FMUL.
#pragma once

#include <span>

#include "kernels/gemm_problem.h"
#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::fp8_gemm_wgmma {

inline constexpr std::string_view kKernel = "fp8_gemm_wgmma";
inline constexpr uint32_t kTileM = 128;
inline constexpr uint32_t kTileN = 128;
inline constexpr uint32_t kTileK = 128;  // 128 bytes of E4M3: one swizzle row
inline constexpr uint32_t kStages = 4;
inline constexpr uint32_t kThreads = 128;
inline constexpr uint32_t kStageBytes = (kTileM + kTileN) * kTileK;
// The stages, plus slack to align them to 1024 bytes (the swizzle pattern's period).
inline constexpr uint32_t kSharedBytes = kStages * kStageBytes + 1024;
// The per-tensor scales the suite passes: powers of two, so that scaling is exact and
// the result stays bit-comparable with the reference.
inline constexpr float kScaleA = 0.5F;
inline constexpr float kScaleB = 0.25F;

using Problem = GemmProblem;

// Values: [M [N [K]]]; M, N multiples of 128, K of 128; N and K default to M.
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l{.kernel = kKernel,
           .grid = {p.n / kTileN, p.m / kTileM},
           .block = {kThreads},
           .dynamic_shared_bytes = kSharedBytes};
  // As the program's cuTensorMapEncodeTiled calls describe them (UINT8, 128-byte swizzle).
  l.add(tensor_map_arg("a_map", {p.m, p.k, 1, kTileM, kTileK, 128}))
      .add(tensor_map_arg("bt_map", {p.n, p.k, 1, kTileN, kTileK, 128}))
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
