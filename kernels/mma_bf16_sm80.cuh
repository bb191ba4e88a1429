// The BF16 forms of the sm_80 tensor-core wrappers of mma_sm80.cuh:
// mma.sync.m16n8k16 with BF16 inputs and FP32 accumulators (HMMA.16816.F32.BF16).
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

namespace sassim::kernels::sm80 {

// d (16x8 FP32) += a (16x16 BF16, row) * b (16x8 BF16, col).
__device__ __forceinline__ void mma_16816_bf16(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                               uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
      "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Two floats as one register of two BF16 (lower column first), round to nearest even.
__device__ __forceinline__ uint32_t pack_bf162(float lo, float hi) {
  const __nv_bfloat162 pair = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const uint32_t*>(&pair);
}

}  // namespace sassim::kernels::sm80
