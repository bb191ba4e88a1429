// Eight BF16 values in one 16-byte vector (uint4), as the LLM kernels load and store
// them: widening to FP32 is a shift, narrowing rounds to nearest even (F2FP.BF16).
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

namespace sassim::kernels {

__device__ __forceinline__ void bf16x8_to_float(const uint4& v, float (&f)[8]) {
  const uint32_t words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    f[2 * i] = __uint_as_float(words[i] << 16);
    f[2 * i + 1] = __uint_as_float(words[i] & 0xffff0000U);
  }
}

__device__ __forceinline__ uint32_t float2_to_bf16x2(float lo, float hi) {
  const __nv_bfloat162 pair = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const uint32_t*>(&pair);
}

__device__ __forceinline__ uint4 float_to_bf16x8(const float (&f)[8]) {
  return make_uint4(float2_to_bf16x2(f[0], f[1]), float2_to_bf16x2(f[2], f[3]),
                    float2_to_bf16x2(f[4], f[5]), float2_to_bf16x2(f[6], f[7]));
}

// FP32 rounded to BF16 and back.
__device__ __forceinline__ float round_bf16(float x) {
  return __bfloat162float(__float2bfloat16_rn(x));
}

}  // namespace sassim::kernels
