#include "traces/emu/fp16.h"

#include <bit>
#include <cmath>

namespace sassim::emu {

float half_to_float(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits >> 15) << 31;
  const uint32_t exponent = (bits >> 10) & 0x1fU;
  const uint32_t mantissa = bits & 0x3ffU;
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000U | (mantissa << 13));
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in FP32.
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24F;
    return sign ? -magnitude : magnitude;
  }
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t float_to_half(float value) {
  const uint32_t x = std::bit_cast<uint32_t>(value);
  const auto sign = static_cast<uint16_t>((x >> 16) & 0x8000U);
  const uint32_t magnitude = x & 0x7fffffffU;
  if (magnitude > 0x7f800000U) return static_cast<uint16_t>(sign | 0x7e00U);   // NaN
  if (magnitude >= 0x477ff000U) return static_cast<uint16_t>(sign | 0x7c00U);  // overflow
  if (magnitude < 0x38800000U) {
    // Subnormal half (or zero): round |value| * 2^24 to an integer, nearest even.
    const float scaled = std::bit_cast<float>(magnitude) * 0x1p24F;
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(scaled)));
  }
  // Normal: drop 13 mantissa bits with round to nearest even.
  uint32_t rebased = magnitude - (112U << 23);
  const uint32_t round = 0xfffU + ((rebased >> 13) & 1U);
  rebased += round;
  return static_cast<uint16_t>(sign | static_cast<uint16_t>(rebased >> 13));
}

float bf16_to_float(uint16_t bits) {
  return std::bit_cast<float>(uint32_t{bits} << 16);
}

uint16_t float_to_bf16(float value) {
  const uint32_t x = std::bit_cast<uint32_t>(value);
  if ((x & 0x7fffffffU) > 0x7f800000U) return static_cast<uint16_t>((x >> 16) | 0x40U);
  const uint32_t round = 0x7fffU + ((x >> 16) & 1U);
  return static_cast<uint16_t>((x + round) >> 16);
}

}  // namespace sassim::emu
