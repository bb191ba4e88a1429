// bf16_gemm_ws (sm_90a only): C = A * B^T with BF16 inputs, FP32 accumulation and FP32
// output: the warp-specialised GEMM of kernels/gemm_ws.h (clusters of two CTAs sharing B
// by TMA multicast, a loading warpgroup and two computing ones on a 128 x 256 tile) with
// wgmma.mma_async.m64n256k16.f32.bf16.bf16, 64 of K a stage. fp8_gemm_wgmma is the same
// kernel on E4M3 inputs, so the two rates compare the tensor cores' two precisions;
// bf16_gemm_wgmma (one warpgroup on a 128 x 128 tile) is the simpler kernel measured on
// an H200. Inputs and reference as bf16_gemm_wgmma's (exact in any order of summation).
// SASS: UTMALDG.2D (.MULTICAST), SYNCS.*, UCGABAR_ARV / UCGABAR_WAIT,
// HGMMA.64x256x16.F32.BF16, WARPGROUP.ARRIVE, WARPGROUP.DEPBAR.
#pragma once

#include "kernels/gemm_ws.h"

namespace sassim::kernels::bf16_gemm_ws {

inline constexpr std::string_view kKernel = "bf16_gemm_ws";
inline constexpr uint32_t kElementBytes = 2;

using Problem = GemmProblem;

// Values: [M [N [K]]]; M a multiple of 256, N of 256, K of 64; N and K default to M.
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l = gemm_ws::launch(kKernel, p, kElementBytes);
  l.add(u32_arg("m", p.m)).add(u32_arg("n", p.n)).add(u32_arg("k", p.k));
  return l;
}

}  // namespace sassim::kernels::bf16_gemm_ws
