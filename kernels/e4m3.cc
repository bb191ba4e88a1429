#include "kernels/e4m3.h"

#include <array>
#include <cmath>

#include "kernels/values.h"

namespace sassim::kernels {

float e4m3_to_float(uint8_t bits) {
  const float sign = (bits & 0x80U) != 0 ? -1.0F : 1.0F;
  const int exponent = (bits >> 3) & 0xf;
  const int mantissa = bits & 0x7;
  if (exponent == 0xf && mantissa == 0x7) return std::nanf("");
  if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -9);
  return sign * std::ldexp(static_cast<float>(8 + mantissa), exponent - 10);
}

uint8_t float_to_e4m3(float value) {
  if (std::isnan(value)) return 0x7f;
  const uint8_t sign = std::signbit(value) ? 0x80 : 0x00;
  const float magnitude = std::fabs(value);
  if (magnitude >= 448.0F) return sign | 0x7e;
  // The nearest of the 127 finite magnitudes, ties to the even code (codes increase with
  // the magnitude, and an even code has an even mantissa).
  uint8_t best = 0;
  for (uint8_t code = 1; code <= 0x7e; ++code) {
    const float here = e4m3_to_float(code), there = e4m3_to_float(best);
    const float d_here = std::fabs(here - magnitude), d_there = std::fabs(there - magnitude);
    if (d_here < d_there || (d_here == d_there && code % 2 == 0)) best = code;
  }
  return sign | best;
}

void fill_dyadic_e4m3(std::span<uint8_t> values, uint64_t seed) {
  // The 17 dyadic values i / 8, i = -8..8, encoded once.
  std::array<uint8_t, 17> codes{};
  for (int i = 0; i < 17; ++i) codes[i] = float_to_e4m3(static_cast<float>(i - 8) / 8.0F);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = codes[static_cast<size_t>(std::lround(dyadic_value(seed, i) * 8.0F) + 8)];
}

}  // namespace sassim::kernels
