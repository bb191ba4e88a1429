// rope: rotary position embedding applied in place to the query and key of a batch of
// tokens, GPT-NeoX style (dimension i rotates with i + 64), as vLLM's
// rotary_embedding kernel (csrc/pos_encoding_kernels.cu): Q [tokens][heads][128] and
// K [tokens][kv_heads][128] BF16, positions [tokens] int32, and the cos/sin table
// cos_sin [max_position][128] FP32 (cos of the 64 frequencies, then their sin), which
// the host computes once, as vLLM's cos_sin_cache: angle = position * theta^(-2i/128),
// theta = 500000 (Llama 3's rope_theta), in double precision rounded to FP32.
//   - one CTA of 128 threads per token; each thread takes 8 dimension pairs of one head
//     (16 bytes of the low half, 16 of the high half), Q heads then K heads;
//   - lo' = fma(lo, cos, -(hi * sin)), hi' = fma(hi, cos, lo * sin) in FP32, rounded to
//     BF16 once.
// Bit-exact: the reference takes the same FP32 steps.
// SASS: LDG.E.128, LDG.E.128 of the table, FMUL/FFMA, F2FP.BF16, STG.E.128.
#pragma once

#include <span>
#include <vector>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::rope {

inline constexpr std::string_view kKernel = "rope";
inline constexpr uint32_t kThreads = 128;
inline constexpr uint32_t kHeadDim = 128;
inline constexpr uint32_t kHalf = kHeadDim / 2;
inline constexpr uint32_t kChunk = 8;  // pairs per thread and step
inline constexpr double kTheta = 500000.0;

struct Problem {
  uint32_t tokens = 32;
  uint32_t heads = 32;           // Llama 3 8B: 32 query heads,
  uint32_t kv_heads = 8;         // 8 KV heads
  uint32_t max_position = 8192;  // rows of the cos/sin table
};

// Values: [TOKENS [HEADS [KV_HEADS [MAX_POSITION]]]].
Problem parse_problem(ParamValues values);

constexpr Launch launch(const Problem& p) {
  Launch l{.kernel = kKernel, .grid = {p.tokens}, .block = {kThreads}};
  l.add(buffer_arg("positions", uint64_t{p.tokens} * 4, Access::kRead))
      .add(buffer_arg("q", uint64_t{p.tokens} * p.heads * kHeadDim * 2, Access::kReadWrite))
      .add(buffer_arg("k", uint64_t{p.tokens} * p.kv_heads * kHeadDim * 2, Access::kReadWrite))
      .add(buffer_arg("cos_sin", uint64_t{p.max_position} * kHeadDim * 4, Access::kRead))
      .add(u32_arg("heads", p.heads))
      .add(u32_arg("kv_heads", p.kv_heads));
  return l;
}

// Token t's position: spread over the table, (t * 977 + 13) % max_position.
std::vector<int32_t> positions(const Problem& p);

// The cos/sin table, [max_position][128].
std::vector<float> cos_sin_table(const Problem& p);

// Rotates x [tokens][heads_of_x][128] (BF16 bits) in place as the kernel does.
void reference(const Problem& p, std::span<const int32_t> positions, std::span<const float> cos_sin,
               uint32_t heads_of_x, std::span<uint16_t> x);

}  // namespace sassim::kernels::rope
