// Deterministic kernel inputs and the 16-bit float formats the tensor-core kernels use.
// Inputs are small dyadic numbers (multiples of 1/8 in [-1, 1]) so that products and
// sums of up to 2^16 of them are exact in FP32: a GEMM's result then does not depend on
// the order of its additions, and SASS executed on the CPU can be checked bit for bit.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace sassim::kernels {

// The value at `index` of the input stream `seed`: a multiple of 1/8 in [-1, 1].
float dyadic_value(uint64_t seed, uint64_t index);

void fill_dyadic(std::span<float> values, uint64_t seed);
// FP16 / BF16 bit patterns of dyadic values (exact in both formats).
void fill_dyadic_half(std::span<uint16_t> values, uint64_t seed);
void fill_dyadic_bf16(std::span<uint16_t> values, uint64_t seed);

// IEEE binary16 and bfloat16 conversions, rounding to nearest even.
float half_to_float(uint16_t bits);
uint16_t float_to_half(float value);
float bf16_to_float(uint16_t bits);
uint16_t float_to_bf16(float value);

// BF16 bit patterns widened to FP32 (for comparing outputs).
std::vector<float> bf16_to_floats(std::span<const uint16_t> values);

}  // namespace sassim::kernels
