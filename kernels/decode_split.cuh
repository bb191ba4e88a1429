// The end of decode_attention_tc's split CTA (the same merge as decode_attention's and
// spec_verify_attention's, which keep theirs inline so that their listings stay as they
// are): each warp holds a running max m, a sum l and an unnormalised
// output per query head of the KV head's group; the warps merge through shared memory and
// the CTA writes the split's normalised output and its log-sum-exp (log2 domain).
#pragma once

#include <cstdint>

#include "kernels/decode_attention.h"

namespace sassim::kernels::decode_split {

// 2^x as one MUFU.EX2 (exp2f adds a range reduction for denormal results).
__device__ __forceinline__ float fast_exp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// Each warp's state, written by its lanes before a __syncthreads().
struct WarpPartials {
  float m[decode_attention::kWarps][decode_attention::kGroup];
  float l[decode_attention::kWarps][decode_attention::kGroup];
  float o[decode_attention::kWarps][decode_attention::kGroup][decode_attention::kHeadDim];
};

// After the __syncthreads(), thread d (one per head dimension) merges dimension d of every
// head: o_partial [row][splits][128] and lse [row][splits] at rows first_row .. + kGroup - 1.
__device__ __forceinline__ void store_split(const WarpPartials& w, size_t first_row, uint32_t split,
                                            uint32_t splits, float* __restrict__ o_partial,
                                            float* __restrict__ lse) {
  constexpr uint32_t kWarps = decode_attention::kWarps;
  const uint32_t d = threadIdx.x;
#pragma unroll
  for (uint32_t h = 0; h < decode_attention::kGroup; ++h) {
    float big = w.m[0][h];
#pragma unroll
    for (uint32_t i = 1; i < kWarps; ++i) big = fmaxf(big, w.m[i][h]);
    float sum = 0.0F, out = 0.0F;
#pragma unroll
    for (uint32_t i = 0; i < kWarps; ++i) {
      const float scale = fast_exp2(w.m[i][h] - big);
      sum = __fmaf_rn(w.l[i][h], scale, sum);
      out = __fmaf_rn(w.o[i][h][d], scale, out);
    }
    const size_t at = (first_row + h) * splits + split;
    o_partial[at * decode_attention::kHeadDim + d] = __fdividef(out, sum);
    if (d == 0) lse[at] = big + log2f(sum);
  }
}

}  // namespace sassim::kernels::decode_split
