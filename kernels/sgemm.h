// sgemm_tiled: C = alpha * A * B + beta * C in FP32, row-major A (M x K), B (K x N),
// C (M x N). Each CTA of 16x16 threads computes a 64x64 tile of C, staging 64x16 of A
// (stored transposed, [k][row], so a warp reads one k along a shared-memory row) and
// 16x64 of B in shared memory; each thread accumulates a 4x4 block (rows ty + 16 i,
// columns tx + 16 j) with one FFMA per product, over k in order. The epilogue is fma(alpha, acc,
// beta * c). The reference uses the same operations in the same order, so it is bit-exact.
#pragma once

#include <span>

#include "kernels/gemm_problem.h"
#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::sgemm {

inline constexpr std::string_view kKernel = "sgemm_tiled";
inline constexpr uint32_t kTileM = 64;
inline constexpr uint32_t kTileN = 64;
inline constexpr uint32_t kTileK = 16;
inline constexpr uint32_t kThreadsX = 16;
inline constexpr uint32_t kThreadsY = 16;
inline constexpr uint32_t kMicro = 4;  // a thread's outputs per dimension
inline constexpr float kAlpha = 0.5F;
inline constexpr float kBeta = 0.25F;

using Problem = GemmProblem;

// Values: [M [N [K]]]; M, N multiples of 64, K of 16; N and K default to M.
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l{
      .kernel = kKernel, .grid = {p.n / kTileN, p.m / kTileM}, .block = {kThreadsX, kThreadsY}};
  l.add(buffer_arg("a", uint64_t{p.m} * p.k * 4, Access::kRead))
      .add(buffer_arg("b", uint64_t{p.k} * p.n * 4, Access::kRead))
      .add(buffer_arg("c", uint64_t{p.m} * p.n * 4, Access::kReadWrite))
      .add(u32_arg("m", p.m))
      .add(u32_arg("n", p.n))
      .add(u32_arg("k", p.k))
      .add(f32_arg("alpha", kAlpha))
      .add(f32_arg("beta", kBeta));
  return l;
}

// The kernel's arithmetic: c = fma(alpha, sum_k fma(a, b, acc), beta * c).
void reference(const Problem& p, std::span<const float> a, std::span<const float> b,
               std::span<float> c, float alpha, float beta);

}  // namespace sassim::kernels::sgemm
