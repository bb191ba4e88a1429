// swiglu: out = silu(gate) * up, the activation of a gated MLP, as vLLM's silu_and_mul
// (csrc/activation_kernels.cu) rounds it: input [tokens][2 * ffn] BF16 with gate in the
// first half of each row and up in the second (the fused gate_up projection's output),
// out [tokens][ffn] BF16; s = bf16(g / (1 + exp(-g))), out = bf16(s * u), in FP32.
//   - grid (ceil(ffn / 2048), tokens), 256 threads, each one 16-byte chunk (8 values) of
//     gate, of up and of out;
//   - exp(-g) is __expf (FMUL by log2(e), MUFU.EX2), the division __fdividef (MUFU.RCP,
//     FMUL).
// The reference takes the same steps with IEEE exp2 and 1/x: the executed SASS (whose
// MUFU are those functions) matches it bit for bit, a GPU within one BF16 rounding step
// (relative 2^-7; MUFU.EX2 and MUFU.RCP are within about 2 ulp of FP32).
// SASS: LDG.E.128, MUFU.EX2, MUFU.RCP, F2FP.BF16, STG.E.128.
#pragma once

#include <span>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::swiglu {

inline constexpr std::string_view kKernel = "swiglu";
inline constexpr uint32_t kThreads = 256;
inline constexpr uint32_t kChunk = 8;  // BF16 values per 16-byte load
inline constexpr float kLog2e = 1.44269504088896340736F;
inline constexpr double kGpuTolerance = 1.0 / 128;

struct Problem {
  uint32_t tokens = 32;
  uint32_t ffn = 14336;  // Llama 3 8B's intermediate size
};

// Values: [TOKENS [FFN]]; FFN a multiple of 8.
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l{.kernel = kKernel,
           .grid = {ceil_div(p.ffn / kChunk, kThreads), p.tokens},
           .block = {kThreads}};
  const uint64_t out_bytes = uint64_t{p.tokens} * p.ffn * 2;
  l.add(buffer_arg("gate_up", 2 * out_bytes, Access::kRead))
      .add(buffer_arg("out", out_bytes, Access::kWrite))
      .add(u32_arg("ffn", p.ffn));
  return l;
}

// out (BF16 bits) from gate_up (BF16 bits), in the kernel's order of operations.
void reference(const Problem& p, std::span<const uint16_t> gate_up, std::span<uint16_t> out);

}  // namespace sassim::kernels::swiglu
