// hgemm_mma (sm_80 and later): C = A * B^T with FP16 inputs and FP32 accumulation and
// output, written with inline PTX the way CUTLASS's sm_80 GEMMs work:
//   - A is M x K row-major, Bt is N x K row-major (the "TN" layout: both K-contiguous),
//     C is M x N row-major FP32;
//   - a CTA of 4 warps (2 x 2) computes a 128 x 128 tile, each warp 64 x 64, as 4 x 8
//     mma.sync.m16n8k16 per 16 of K;
//   - K advances 32 at a time through a 3-stage cp.async pipeline in dynamic shared
//     memory (3 x 16 KiB): the copy of tile kt + 2 overlaps the math on tile kt;
//   - operands reach registers with ldmatrix.x4 from 64-byte shared-memory rows whose
//     16-byte chunks are XOR-swizzled (chunk ^ ((row / 2) % 4)), so the eight rows an
//     ldmatrix reads fall in distinct banks.
// SASS: LDGSTS (cp.async), LDSM.16.M88.4 (ldmatrix), HMMA.16816.F32 (mma), DEPBAR.
#pragma once

#include <span>

#include "kernels/gemm_problem.h"
#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::hgemm_mma {

inline constexpr std::string_view kKernel = "hgemm_mma";
inline constexpr uint32_t kTileM = 128;
inline constexpr uint32_t kTileN = 128;
inline constexpr uint32_t kTileK = 32;
inline constexpr uint32_t kStages = 3;
inline constexpr uint32_t kThreads = 128;
inline constexpr uint32_t kStageBytes = (kTileM + kTileN) * kTileK * 2;
inline constexpr uint32_t kSharedBytes = kStages * kStageBytes;

using Problem = GemmProblem;

// Values: [M [N [K]]]; M, N multiples of 128, K of 32; N and K default to M.
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l{.kernel = kKernel,
           .grid = {p.n / kTileN, p.m / kTileM},
           .block = {kThreads},
           .dynamic_shared_bytes = kSharedBytes};
  l.add(buffer_arg("a", uint64_t{p.m} * p.k * 2, Access::kRead))
      .add(buffer_arg("bt", uint64_t{p.n} * p.k * 2, Access::kRead))
      .add(buffer_arg("c", uint64_t{p.m} * p.n * 4, Access::kWrite))
      .add(u32_arg("m", p.m))
      .add(u32_arg("n", p.n))
      .add(u32_arg("k", p.k));
  return l;
}

// c[i][j] = sum over k of a[i][k] * bt[j][k] (FP16 bit patterns in, FP32 sums in k
// order). Exact, whatever the order, for the suite's dyadic inputs.
void reference(const Problem& p, std::span<const uint16_t> a, std::span<const uint16_t> bt,
               std::span<float> c);

}  // namespace sassim::kernels::hgemm_mma
