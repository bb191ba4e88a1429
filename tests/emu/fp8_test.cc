// The executor's 8-bit float decoding (traces/emu/fp8.h) for all 256 codes of each
// format, against the formats' definitions written out here, and named values.
#include <gtest/gtest.h>

#include <cmath>

#include "traces/emu/fp8.h"

namespace sassim::emu {
namespace {

// (-1)^s x 2^(e - bias) x (1 + m / 2^mbits), or 2^(1 - bias) x m / 2^mbits when e = 0.
double definition(uint8_t bits, int ebits, int mbits, int bias) {
  const int s = bits >> 7;
  const int e = (bits >> mbits) & ((1 << ebits) - 1);
  const int m = bits & ((1 << mbits) - 1);
  const double magnitude =
      e == 0 ? std::ldexp(m, 1 - bias - mbits) : std::ldexp((1 << mbits) + m, e - bias - mbits);
  return s != 0 ? -magnitude : magnitude;
}

TEST(Fp8, E4m3EveryCodeAsDefined) {
  for (int code = 0; code < 256; ++code) {
    const auto bits = static_cast<uint8_t>(code);
    const float got = e4m3_to_float(bits);
    if ((code & 0x7f) == 0x7f) {
      EXPECT_TRUE(std::isnan(got)) << code;  // S.1111.111: the only NaN, no infinity
      continue;
    }
    EXPECT_EQ(got, definition(bits, 4, 3, 7)) << code;
    EXPECT_EQ(std::signbit(got), code >= 0x80) << code;  // -0 stays negative
  }
}

TEST(Fp8, E4m3NamedValues) {
  EXPECT_EQ(e4m3_to_float(0x38), 1.0F);
  EXPECT_EQ(e4m3_to_float(0xb8), -1.0F);
  EXPECT_EQ(e4m3_to_float(0x7e), 448.0F);       // largest finite: S.1111.110
  EXPECT_EQ(e4m3_to_float(0x78), 256.0F);       // S.1111.000 is finite (no infinity)
  EXPECT_EQ(e4m3_to_float(0x08), 0x1p-6F);      // smallest normal
  EXPECT_EQ(e4m3_to_float(0x07), 7 * 0x1p-9F);  // largest subnormal
  EXPECT_EQ(e4m3_to_float(0x01), 0x1p-9F);      // smallest subnormal
  EXPECT_EQ(e4m3_to_float(0x81), -0x1p-9F);
  EXPECT_EQ(e4m3_to_float(0x2c), 0.375F);  // 1.5 x 2^-2
  EXPECT_EQ(e4m3_to_float(0x00), 0.0F);
  EXPECT_TRUE(std::signbit(e4m3_to_float(0x80)));  // -0
  EXPECT_TRUE(std::isnan(e4m3_to_float(0xff)));
}

TEST(Fp8, E5m2EveryCodeAsDefined) {
  for (int code = 0; code < 256; ++code) {
    const auto bits = static_cast<uint8_t>(code);
    const float got = e5m2_to_float(bits);
    if ((code & 0x7c) == 0x7c) {  // exponent all ones: infinity (m = 0) or NaN
      if ((code & 3) == 0) {
        EXPECT_EQ(got, code >= 0x80 ? -INFINITY : INFINITY) << code;
      } else {
        EXPECT_TRUE(std::isnan(got)) << code;
      }
      continue;
    }
    EXPECT_EQ(got, definition(bits, 5, 2, 15)) << code;
  }
  EXPECT_EQ(e5m2_to_float(0x3c), 1.0F);
  EXPECT_EQ(e5m2_to_float(0x7b), 57344.0F);  // largest finite
  EXPECT_EQ(e5m2_to_float(0x01), 0x1p-16F);  // smallest subnormal
}

}  // namespace
}  // namespace sassim::emu
