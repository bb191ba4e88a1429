// The OCP FP8 E4M3 format (the "fn" variant of the OCP 8-bit floating point
// specification, v1.0, 2023, and of PTX's .e4m3): 1 sign, 4 exponent (bias 7) and 3
// mantissa bits, subnormals down to 2^-9, largest finite 448, no infinities, NaN only as
// S.1111.111.
#pragma once

#include <cstdint>
#include <span>

namespace sassim::kernels {

float e4m3_to_float(uint8_t bits);
// Rounds to nearest even; magnitudes beyond 448 saturate to +-448 (PTX cvt .satfinite),
// NaN becomes 0x7f.
uint8_t float_to_e4m3(float value);

// E4M3 bit patterns of the dyadic inputs of values.h (multiples of 1/8 in [-1, 1], all
// exact in E4M3).
void fill_dyadic_e4m3(std::span<uint8_t> values, uint64_t seed);

}  // namespace sassim::kernels
