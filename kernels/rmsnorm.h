// rmsnorm: y = bf16(bf16(x / sqrt(mean(x^2) + eps)) * w) per token row, as vLLM's
// rms_norm kernel (csrc/layernorm_kernels.cu) rounds it: BF16 x [tokens][hidden] and
// w [hidden], FP32 accumulation, one CTA of 256 threads per row.
//   - each thread loads 16-byte chunks (8 values) of the row, chunk tid, tid + 256, ...,
//     and accumulates x^2 with FMAs in element order;
//   - each warp sums its lanes with __shfl_xor_sync (offsets 16, 8, 4, 2, 1), the eight
//     warp sums meet in shared memory and every thread adds them in warp order;
//   - r = rsqrt(sum * (1 / hidden) + eps) (MUFU.RCP, FFMA, MUFU.RSQ), then a second pass
//     re-reads x (L1/L2-resident) and w and writes y.
// The reference follows the same order of operations; it uses IEEE 1/x and 1/sqrt(x)
// where the GPU's MUFU.RCP and MUFU.RSQ are approximate (about 1 ulp), so the executed
// SASS (whose MUFU are the IEEE functions) matches it bit for bit and a GPU within one
// BF16 rounding step (relative 2^-7).
// SASS: LDG.E.128, SHFL.BFLY, STS/LDS, BAR.SYNC, MUFU.RSQ, F2FP.BF16, STG.E.128.
#pragma once

#include <span>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::rmsnorm {

inline constexpr std::string_view kKernel = "rmsnorm";
inline constexpr uint32_t kThreads = 256;
inline constexpr uint32_t kWarps = kThreads / 32;
inline constexpr uint32_t kChunk = 8;  // BF16 values per 16-byte load
// Llama 3 8B's rms_norm_eps (config.json of meta-llama/Meta-Llama-3-8B).
inline constexpr float kEps = 1e-5F;
// Relative tolerance against a GPU: one BF16 step of the 8-bit significand, for the
// approximate MUFU.RCP / MUFU.RSQ.
inline constexpr double kGpuTolerance = 1.0 / 128;

struct Problem {
  uint32_t tokens = 32;    // rows (a decode batch)
  uint32_t hidden = 4096;  // Llama 3 8B's hidden size
};

// Values: [TOKENS [HIDDEN]]; HIDDEN a multiple of 8.
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l{.kernel = kKernel, .grid = {p.tokens}, .block = {kThreads}};
  const uint64_t bytes = uint64_t{p.tokens} * p.hidden * 2;
  l.add(buffer_arg("x", bytes, Access::kRead))
      .add(buffer_arg("w", uint64_t{p.hidden} * 2, Access::kRead))
      .add(buffer_arg("y", bytes, Access::kWrite))
      .add(u32_arg("hidden", p.hidden))
      .add(f32_arg("eps", kEps));
  return l;
}

// y (BF16 bits) from x and w (BF16 bits), in the kernel's order of operations.
void reference(const Problem& p, std::span<const uint16_t> x, std::span<const uint16_t> w,
               std::span<uint16_t> y);

}  // namespace sassim::kernels::rmsnorm
