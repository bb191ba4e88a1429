// fp8_gemm_wgmma (sm_90a only): C = (A * B^T) * scale_a * scale_b with E4M3 inputs, FP32
// accumulation and FP32 output, per-tensor FP32 scales as kernel parameters (the
// "QGMMA path" of FP8 inference): the warp-specialised GEMM of kernels/gemm_ws.h with
// wgmma.mma_async.m64n256k32.f32.e4m3.e4m3 (8-bit wgmma reads only K-major operands),
// the epilogue multiplying each accumulator by scale_a * scale_b (one FMUL).
// The output is FP32, as bf16_gemm_wgmma's, and the result is checked bit for bit without
// a rounding step (a BF16 output would add F2FP.BF16 and halve C's bytes).
// SASS: UTMALDG.2D (.MULTICAST), SYNCS.* (mbarriers), UCGABAR_ARV / UCGABAR_WAIT,
// QGMMA.64x256x32.F32.E4M3.E4M3, WARPGROUP.ARRIVE, WARPGROUP.DEPBAR, FMUL.
#pragma once

#include <span>

#include "kernels/gemm_ws.h"

namespace sassim::kernels::fp8_gemm_wgmma {

inline constexpr std::string_view kKernel = "fp8_gemm_wgmma";
inline constexpr uint32_t kElementBytes = 1;
// The per-tensor scales the suite passes: powers of two, so that scaling is exact and
// the result stays bit-comparable with the reference.
inline constexpr float kScaleA = 0.5F;
inline constexpr float kScaleB = 0.25F;

using Problem = GemmProblem;

// Values: [M [N [K]]]; M a multiple of 256, N of 256, K of 128; N and K default to M.
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l = gemm_ws::launch(kKernel, p, kElementBytes);
  l.add(f32_arg("scale_a", kScaleA))
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
