#include "kernels/values.h"

#include <bit>
#include <cmath>

namespace sassim::kernels {
namespace {

// SplitMix64 finaliser: a fixed, portable hash of (seed, index).
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

float dyadic_value(uint64_t seed, uint64_t index) {
  const uint64_t h = mix(mix(seed) ^ index);
  return static_cast<float>(static_cast<int>(h % 17) - 8) / 8.0F;
}

void fill_dyadic(std::span<float> values, uint64_t seed) {
  for (size_t i = 0; i < values.size(); ++i) values[i] = dyadic_value(seed, i);
}

void fill_dyadic_half(std::span<uint16_t> values, uint64_t seed) {
  for (size_t i = 0; i < values.size(); ++i) values[i] = float_to_half(dyadic_value(seed, i));
}

void fill_dyadic_bf16(std::span<uint16_t> values, uint64_t seed) {
  for (size_t i = 0; i < values.size(); ++i) values[i] = float_to_bf16(dyadic_value(seed, i));
}

float half_to_float(uint16_t bits) {
  const uint32_t sign = (bits & 0x8000U) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1fU;
  const uint32_t mantissa = bits & 0x3ffU;
  float magnitude = 0.0F;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // zero or subnormal
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400U), static_cast<int>(exponent) - 25);
  }
  return std::bit_cast<float>(std::bit_cast<uint32_t>(magnitude) | sign);
}

uint16_t float_to_half(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000U);
  const float magnitude = std::fabs(value);
  if (std::isnan(value)) return static_cast<uint16_t>(sign | 0x7e00U);
  if (magnitude >= 65520.0F) return static_cast<uint16_t>(sign | 0x7c00U);  // rounds to inf
  if (magnitude < std::ldexp(1.0F, -14)) {
    // Subnormal: a multiple of 2^-24, rounded to nearest even by nearbyint.
    const auto units = static_cast<uint32_t>(std::nearbyint(std::ldexp(magnitude, 24)));
    return static_cast<uint16_t>(sign | units);
  }
  const uint32_t abs_bits = bits & 0x7fffffffU;
  uint32_t exponent = (abs_bits >> 23) - 127 + 15;
  uint32_t mantissa = abs_bits & 0x7fffffU;
  const uint32_t dropped = mantissa & 0x1fffU;
  mantissa >>= 13;
  if (dropped > 0x1000U || (dropped == 0x1000U && (mantissa & 1U) != 0)) {
    ++mantissa;
    if (mantissa == 0x400U) {
      mantissa = 0;
      ++exponent;
    }
  }
  return static_cast<uint16_t>(sign | (exponent << 10) | mantissa);
}

float bf16_to_float(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

uint16_t float_to_bf16(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  if (std::isnan(value)) return static_cast<uint16_t>((bits >> 16) | 0x40U);
  const uint32_t rounding = 0x7fffU + ((bits >> 16) & 1U);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

std::vector<float> bf16_to_floats(std::span<const uint16_t> values) {
  std::vector<float> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) out[i] = bf16_to_float(values[i]);
  return out;
}

}  // namespace sassim::kernels
