// skinny_gemm_m1 / _m2 / _m4 / _m8 (sm_80 and later): C = A * W^T for the few token rows
// of a decode step, as the batched GEMV kernels of serving engines do it on the CUDA
// cores: a weight matrix streamed once from DRAM, the activations re-read from L1.
//   - A [M][K] and W [N][K] BF16, row-major (K-major: W is nn.Linear's [out][in]), C
//     [M][N] FP32; M is the variant's 1, 2, 4 or 8 rows (a batch pads up to it);
//   - grid N / 16, 128 threads: each warp takes 4 rows of W (4 outputs of each of the M
//     rows of C); a lane loads 16 bytes (8 values) of each of the 4 rows per step, 256
//     values of K per warp and step, the next step's 4 loads issued before this step's
//     FMAs (so 8 are in flight), and the M matching chunks of A;
//   - each lane accumulates its chunks in K order in FP32 (one FMA per product), then the
//     warp sums the 32 lanes with a butterfly of shuffles (xor 16, 8, 4, 2, 1) and lane 0
//     stores the 4 outputs of each row of C as one 16-byte store.
// The reference takes the same order: bit for bit the executed SASS's, and exact for the
// suite's dyadic inputs, so a GPU matches it too.
// SASS: LDG.E.128.CONSTANT, FFMA, SHFL.BFLY, STG.E.128.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::skinny_gemm {

inline constexpr std::array<std::string_view, 4> kKernels = {"skinny_gemm_m1", "skinny_gemm_m2",
                                                             "skinny_gemm_m4", "skinny_gemm_m8"};
inline constexpr uint32_t kMaxRows = 8;
inline constexpr uint32_t kThreads = 128;
inline constexpr uint32_t kColsPerWarp = 4;
inline constexpr uint32_t kColsPerCta = kColsPerWarp * kThreads / 32;  // 16
inline constexpr uint32_t kChunk = 8;                                  // BF16 values per load
inline constexpr uint32_t kStepK = kChunk * 32;                        // K per warp and step

struct Problem {
  uint32_t m = 1;
  uint32_t n = 4096;
  uint32_t k = 4096;
};

// The variant of `kernel` (skinny_gemm_mM): its M, or 0 when it is none of them.
uint32_t rows_of(std::string_view kernel);
// The variant for `tokens` rows (1 to 8): the smallest M >= tokens.
std::string_view kernel_for(uint32_t tokens);

// Values: [N [K]]; N a multiple of 16, K of 256. M is the kernel's.
Problem parse_problem(std::string_view kernel, ParamValues values);

inline Launch launch(const Problem& p) {
  Launch l{.kernel = kernel_for(p.m), .grid = {p.n / kColsPerCta}, .block = {kThreads}};
  l.add(buffer_arg("a", uint64_t{p.m} * p.k * 2, Access::kRead))
      .add(buffer_arg("w", uint64_t{p.n} * p.k * 2, Access::kRead))
      .add(buffer_arg("c", uint64_t{p.m} * p.n * 4, Access::kWrite))
      .add(u32_arg("n", p.n))
      .add(u32_arg("k", p.k));
  return l;
}

// c (FP32, [M][N]) from a and w (BF16 bits) in the kernel's order of operations.
void reference(const Problem& p, std::span<const uint16_t> a, std::span<const uint16_t> w,
               std::span<float> c);

}  // namespace sassim::kernels::skinny_gemm
