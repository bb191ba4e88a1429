// The 8-bit floating-point formats of Hopper's QGMMA (PTX .e4m3 and .e5m2, the OCP 8-bit
// floating point specification v1.0, 2023), decoded exactly into float:
//   E4M3: 1 sign, 4 exponent (bias 7), 3 mantissa bits; subnormals m x 2^-9; largest
//         finite 448 (S.1111.110); S.1111.111 is NaN; no infinities.
//   E5M2: 1 sign, 5 exponent (bias 15), 2 mantissa bits: the top byte of an IEEE
//         binary16 (subnormals m x 2^-16, largest finite 57344, infinities, NaNs).
#pragma once

#include <cstdint>

namespace sassim::emu {

float e4m3_to_float(uint8_t bits);
float e5m2_to_float(uint8_t bits);

}  // namespace sassim::emu
