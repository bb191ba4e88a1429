// decode_attention_tc: decode_attention's flash-decoding split (kernels/decode_attention.h:
// the same problem, paged cache, grid, splits and outputs, so decode_attention_combine
// finishes it) with the scores and the weighted sum of V on the tensor cores, as serving
// engines run grouped-query decode: the 4 query heads of a KV head are the first 4 of the
// 16 rows of mma.sync.m16n8k16 (BF16 in, FP32 accumulation), the other 12 rows zero.
//   - Warp w takes pages w, w + 4, ... of the CTA's split, one page (16 tokens) a step. Its
//     K and V rows go from global memory straight into mma fragments (no shared memory):
//     S = Q K^T is 2 tiles of 8 tokens x 8 steps of 16 dimensions, each lane loading 16
//     bytes (dimensions 32 c + 8 quad .. + 7 of token 8 tile + group, quad = lane % 4,
//     group = lane / 4) and Q's fragments taking the same dimensions, so the k order of
//     each step is a permutation of the head dimension that both operands share.
//   - Online softmax per query head on the S fragments (scaled into the exp2 domain after
//     the product), the page max over a quad with two shuffles; the output and the sum are
//     rescaled only when some head's max rose (a warp vote: otherwise the factor would be
//     exactly 1). P is rounded to BF16 for the second product, the sum l takes the FP32
//     weights (as FlashAttention-2).
//   - O^T += V^T P^T is 8 tiles of 16 dimensions over the page's 16 tokens: P's S
//     fragments are the B fragments as they are (column = head); each lane loads chunks
//     `group` and 8 + group of the 4 token rows its A fragments need and pairs the tokens'
//     values per dimension with byte permutes (PRMT), so row r of tile t holds dimension
//     t + 8 (r % 8) + 64 (r / 8). O^T takes 32 registers a lane where O would take 64:
//     156 in all, 3 CTAs an SM (__launch_bounds__(128, 3)).
//   - The warps merge through shared memory as decode_attention's do.
// The reference follows these steps (FP32 scores, running max, BF16 weights), in double
// where the kernel sums in FP32; kernels are checked against it within
// decode_attention::kRelTolerance and kAbsTolerance.
// SASS: LDG.E.128.CONSTANT, HMMA.16816.F32.BF16, PRMT, SHFL.BFLY, VOTE.ANY, MUFU.EX2,
// F2FP.BF16, BAR.SYNC.
#pragma once

#include <span>
#include <string_view>

#include "kernels/decode_attention.h"
#include "kernels/launch.h"

namespace sassim::kernels::decode_attention_tc {

inline constexpr std::string_view kKernel = "decode_attention_tc";

// decode_attention's launch under this kernel's name.
constexpr Launch launch(const decode_attention::Problem& p) {
  Launch l = decode_attention::launch(p);
  l.kernel = kKernel;
  return l;
}

// The split partials as the kernel computes them (see above).
decode_attention::Partials reference_partials(const decode_attention::Problem& p,
                                              std::span<const uint16_t> q,
                                              std::span<const uint16_t> k_cache,
                                              std::span<const uint16_t> v_cache);

}  // namespace sassim::kernels::decode_attention_tc
