// FP32 rounding modes, packed halves and conversions.
#include <gtest/gtest.h>

#include <bit>
#include <limits>

#include "tests/emu/emu_rig.h"
#include "traces/emu/fp16.h"

namespace sassim::emu::testing {
namespace {

uint32_t bits(float f) {
  return std::bit_cast<uint32_t>(f);
}

TEST(EmuFpOps, FfmaRoundsAsItsModifierSays) {
  Rig rig;
  rig.add("MOV", {R(0), I(bits(1.0F))})
      .add("MOV", {R(1), I(bits(0x1p-30F))})
      .add("FFMA", {R(2), R(0), R(0), R(1)})
      .add("FFMA.RP", {R(3), R(0), R(0), R(1)})
      .add("FFMA.RM", {R(4), R(0), R(0), neg(R(1))})
      .add("FADD.FTZ", {R(5), R(0), neg(R(0))})
      .add("FMUL", {R(6), R(0), F(-0.5)})
      .add("EXIT", {});
  rig.run();
  EXPECT_EQ(rig.reg(2), bits(1.0F));
  EXPECT_EQ(rig.reg(3), 0x3f800001U);
  EXPECT_EQ(rig.reg(4), 0x3f7fffffU);
  EXPECT_EQ(rig.reg(5), 0U);
  EXPECT_EQ(rig.reg(6), bits(-0.5F));
}

TEST(EmuFpOps, MinMaxCompareAndMufu) {
  Rig rig;
  rig.add("MOV", {R(0), I(bits(std::numeric_limits<float>::quiet_NaN()))})
      .add("MOV", {R(1), I(bits(3.0F))})
      .add("FMNMX", {R(2), R(0), R(1), P(7)})                // min(NaN, 3) = 3
      .add("FMNMX", {R(3), R(1), F(-1.0), P(7, true)})       // max(3, -1)
      .add("FSETP.GEU.AND", {P(0), P(1), R(0), R(1), P(7)})  // unordered: true
      .add("FSETP.GE.AND", {P(2), P(7), R(0), R(1), P(7)})   // ordered: false
      .add("MUFU.EX2", {R(4), R(1)})
      .add("MUFU.RCP", {R(5), F(4.0)})
      .add("EXIT", {});
  rig.run();
  EXPECT_EQ(rig.reg(2), bits(3.0F));
  EXPECT_EQ(rig.reg(3), bits(3.0F));
  EXPECT_EQ(rig.warp().p[0] & 1U, 1U);
  EXPECT_EQ(rig.warp().p[1] & 1U, 0U);
  EXPECT_EQ(rig.warp().p[2] & 1U, 0U);
  EXPECT_EQ(rig.reg(4), bits(8.0F));
  EXPECT_EQ(rig.reg(5), bits(0.25F));
}

TEST(EmuFpOps, PackedHalves) {
  sass::Operand zero = I(0);
  Rig rig;
  rig.add("HFMA2.MMA", {R(7), neg(R(255)), R(255), zero, F(2.384185791015625e-07)})
      .add("MOV", {R(0), I(bits(1.0F))})
      .add("MOV", {R(1), I(bits(2.0F))})
      .add("F2FP.F16.F32.PACK_AB", {R(2), R(0), R(1)})
      .add("HADD2", {R(3), R(2), R(2, {"H1_H1"})})  // (1 + 1, 2 + 1)
      .add("HMUL2", {R(4), R(2), R(2, {"H0_H0"})})  // (1 * 2, 2 * 2)
      .add("F2FP.BF16.F32.PACK_AB", {R(5), R(1), R(0)})
      .add("EXIT", {});
  rig.run();
  EXPECT_EQ(rig.reg(7), 4U);  // the size 4 as the half pair (0, 2^-22)
  EXPECT_EQ(rig.reg(2), 0x3c004000U);
  EXPECT_EQ(rig.reg(3), (uint32_t{float_to_half(2.0F)} << 16) | float_to_half(3.0F));
  EXPECT_EQ(rig.reg(4), (uint32_t{float_to_half(2.0F)} << 16) | float_to_half(4.0F));
  EXPECT_EQ(rig.reg(5), 0x40003f80U);
}

TEST(EmuFpOps, HalfConversionsRoundToNearestEven) {
  EXPECT_EQ(float_to_half(1.0F + 0x1p-11F), 0x3c00);  // tie: to even
  EXPECT_EQ(float_to_half(1.0F + 0x1p-11F + 0x1p-20F), 0x3c01);
  EXPECT_EQ(float_to_half(65520.0F), 0x7c00);  // overflows to +inf
  EXPECT_EQ(float_to_half(0x1p-24F), 0x0001);  // smallest subnormal
  EXPECT_EQ(half_to_float(0x0001), 0x1p-24F);
  EXPECT_EQ(float_to_bf16(1.0F + 0x1p-8F), 0x3f80);  // tie: to even
  EXPECT_EQ(bf16_to_float(0xc000), -2.0F);
}

}  // namespace
}  // namespace sassim::emu::testing
