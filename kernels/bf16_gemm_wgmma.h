// bf16_gemm_wgmma (sm_90a only): C = A * B^T with BF16 inputs and FP32 accumulation
// and output, the Hopper way, in inline PTX:
//   - A is M x K row-major, Bt is N x K row-major (both K-major), C is M x N FP32;
//   - a CTA of one warpgroup (4 warps) computes a 128 x 128 tile as two
//     wgmma.mma_async.m64n128k16 per 16 of K, operands read from shared memory
//     through matrix descriptors (128-byte swizzle), accumulators in registers;
//   - K advances 64 at a time through a 4-stage ring in dynamic shared memory
//     (4 x 32 KiB) filled by TMA (cp.async.bulk.tensor.2d, one thread issues them);
//     each stage has an mbarrier that the TMA completes by bytes (expect_tx) and the
//     warpgroup waits on with its phase parity; a stage is refilled once the wgmma
//     group that read it has retired (wgmma.wait_group 1);
//   - the tensor maps (CUtensorMap, 128 bytes, built on the host by
//     cuTensorMapEncodeTiled: box 64 x 128, SWIZZLE_128B) are __grid_constant__
//     kernel parameters.
// SASS: UTMALDG.2D, SYNCS.* (mbarrier), HGMMA.64x128x16.F32.BF16, WARPGROUP.ARRIVE,
// WARPGROUP.DEPBAR.
#pragma once

#include <span>

#include "kernels/gemm_problem.h"
#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::bf16_gemm_wgmma {

inline constexpr std::string_view kKernel = "bf16_gemm_wgmma";
inline constexpr uint32_t kTileM = 128;
inline constexpr uint32_t kTileN = 128;
inline constexpr uint32_t kTileK = 64;  // 128 bytes of BF16: one swizzle row
inline constexpr uint32_t kStages = 4;
inline constexpr uint32_t kThreads = 128;
inline constexpr uint32_t kStageBytes = (kTileM + kTileN) * kTileK * 2;
// The stages, plus slack to align them to 1024 bytes (the swizzle pattern's period).
inline constexpr uint32_t kSharedBytes = kStages * kStageBytes + 1024;

using Problem = GemmProblem;

// Values: [M [N [K]]]; M, N multiples of 128, K of 64; N and K default to M.
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l{.kernel = kKernel,
           .grid = {p.n / kTileN, p.m / kTileM},
           .block = {kThreads},
           .dynamic_shared_bytes = kSharedBytes};
  // As the program's cuTensorMapEncodeTiled calls describe them (BF16, 128-byte swizzle).
  l.add(tensor_map_arg("a_map", {p.m, p.k, 2, kTileM, kTileK, 128}))
      .add(tensor_map_arg("bt_map", {p.n, p.k, 2, kTileN, kTileK, 128}))
      .add(buffer_arg("c", uint64_t{p.m} * p.n * 4, Access::kWrite))
      .add(u32_arg("m", p.m))
      .add(u32_arg("n", p.n))
      .add(u32_arg("k", p.k));
  return l;
}

// c[i][j] = sum over k of a[i][k] * bt[j][k] (BF16 bit patterns in, FP32 sums in k
// order). Exact, whatever the order, for the suite's dyadic inputs.
void reference(const Problem& p, std::span<const uint16_t> a, std::span<const uint16_t> bt,
               std::span<float> c);

}  // namespace sassim::kernels::bf16_gemm_wgmma
