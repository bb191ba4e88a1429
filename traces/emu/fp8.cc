#include "traces/emu/fp8.h"

#include <bit>
#include <limits>

#include "traces/emu/fp16.h"

namespace sassim::emu {

float e4m3_to_float(uint8_t bits) {
  const uint32_t sign = uint32_t{bits & 0x80U} << 24;
  const uint32_t exponent = (bits >> 3) & 0xfU;
  const uint32_t mantissa = bits & 0x7U;
  if (exponent == 0xf && mantissa == 0x7) return std::numeric_limits<float>::quiet_NaN();
  if (exponent == 0) {
    // Subnormal: mantissa x 2^-9, exact in float (an integer times a power of two).
    const float magnitude = static_cast<float>(mantissa) * 0x1p-9F;
    return std::bit_cast<float>(std::bit_cast<uint32_t>(magnitude) | sign);
  }
  // Normal: rebias the exponent (7 -> 127) and widen the mantissa (3 -> 23 bits).
  return std::bit_cast<float>(sign | ((exponent + 120U) << 23) | (mantissa << 20));
}

float e5m2_to_float(uint8_t bits) {
  return half_to_float(static_cast<uint16_t>(bits << 8));
}

}  // namespace sassim::emu
