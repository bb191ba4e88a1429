// Bit counting, min/max, predicate moves and conversions.
#include <gtest/gtest.h>

#include <bit>

#include "tests/emu/emu_rig.h"
#include "traces/emu/fp16.h"

namespace sassim::emu::testing {
namespace {

sass::Operand PR() {
  sass::Operand o;
  o.kind = sass::OperandKind::kOther;
  o.text = "PR";
  return o;
}

TEST(EmuIntMisc, BitsMinMaxAndPredicateMoves) {
  Rig rig;
  rig.add("MOV", {R(0), I(0xf0000001)})
      .add("POPC", {R(1), R(0)})
      .add("FLO.U32", {R(2), R(0)})
      .add("BREV", {R(3), R(0)})
      .add("IABS", {R(4), R(0)})
      .add("IMNMX", {R(5), R(0), I(3), P(7)})      // signed min(-268435455, 3)
      .add("IMNMX.U32", {R(6), R(0), I(3), P(7)})  // unsigned min
      .add("ISETP.NE.AND", {P(1), P(7), R(0), R(255), P(7)})
      .add("ISETP.EQ.AND", {P(2), P(3), R(0), R(255), P(7)})
      .add("P2R", {R(7), PR(), R(255), I(0x7f)})  // P1, P3 set: 0b1010
      .add("MOV", {R(8), I(0x21)})
      .add("R2P", {PR(), R(8), I(0x3f)})  // P0 and P5 set, P1..P4 cleared
      .add("EXIT", {});
  rig.run();
  EXPECT_EQ(rig.reg(1), 5U);
  EXPECT_EQ(rig.reg(2), 31U);
  EXPECT_EQ(rig.reg(3), 0x8000000fU);
  EXPECT_EQ(rig.reg(4), 0x0fffffffU);
  EXPECT_EQ(rig.reg(5), 0xf0000001U);
  EXPECT_EQ(rig.reg(6), 3U);
  EXPECT_EQ(rig.reg(7), 0xaU);
  const Warp& w = rig.warp();
  EXPECT_EQ(w.p[0] & 1U, 1U);
  EXPECT_EQ(w.p[1] & 1U, 0U);
  EXPECT_EQ(w.p[3] & 1U, 0U);
  EXPECT_EQ(w.p[5] & 1U, 1U);
}

// FLO.SH gives the shift that brings the leading one to bit 31 (bfind.shiftamt), and no
// one stays ~0: BREV then FLO.U32.SH is nvcc's __ffs(x) - 1, the lowest set bit.
TEST(EmuIntMisc, FloShiftAmount) {
  Rig rig;
  rig.add("MOV", {R(0), I(0x00010040)})
      .add("FLO.U32.SH", {R(1), R(0)})  // leading one at bit 16: shift 15
      .add("FLO.U32", {R(2), R(0)})     // at bit 16
      .add("BREV", {R(3), R(0)})
      .add("FLO.U32.SH", {R(4), R(3)})  // the lowest set bit of R0: 6
      .add("FLO.U32.SH", {R(5), R(255)})
      .add("MOV", {R(6), I(0xfff00000)})  // -2^20: the highest bit unlike the sign is 19
      .add("FLO.SH", {R(7), R(6)})
      .add("EXIT", {});
  rig.run();
  EXPECT_EQ(rig.reg(1), 15U);
  EXPECT_EQ(rig.reg(2), 16U);
  EXPECT_EQ(rig.reg(4), 6U);
  EXPECT_EQ(rig.reg(5), 0xffffffffU);
  EXPECT_EQ(rig.reg(7), 12U);
}

// CS2R reads the clock into a register pair; CS2R.32 (the 32-bit %clock) writes one
// register and leaves the next alone.
TEST(EmuIntMisc, Cs2rWritesAPairOrOneRegister) {
  Rig rig;
  rig.add("MOV", {R(3), I(0x1234)})
      .add("MOV", {R(5), I(0x5678)})
      .add("CS2R.32", {R(2), SR("SR_CLOCKLO")})
      .add("MOV", {R(4), I(0xdead)})
      .add("CS2R", {R(4), SR("SRZ")})
      .add("CS2R", {R(6), SR("SR_CLOCKLO")})
      .add("EXIT", {});
  rig.run();
  EXPECT_EQ(rig.reg(3), 0x1234U);  // untouched by CS2R.32
  EXPECT_EQ(rig.reg(2), 2U);       // the warp instructions executed before it
  EXPECT_EQ(rig.reg(4), 0U);
  EXPECT_EQ(rig.reg(5), 0U);  // CS2R writes the pair
  EXPECT_EQ(rig.reg(6), 5U);
  EXPECT_EQ(rig.reg(7), 0U);
}

TEST(EmuIntMisc, Conversions) {
  Rig rig;
  rig.add("MOV", {R(0), I(0xfffffffd)})  // -3
      .add("I2F", {R(1), R(0)})
      .add("I2F.U32", {R(2), R(0)})
      .add("MOV", {R(3), I(std::bit_cast<uint32_t>(-2.5F))})
      .add("F2I.TRUNC.NTZ", {R(4), R(3)})
      .add("F2I.FLOOR.NTZ", {R(5), R(3)})
      .add("F2I.U32.TRUNC.NTZ", {R(6), R(3)})
      .add("F2F.F16.F32", {R(7), R(3)})
      .add("F2F.F32.F16", {R(8), R(7)})
      .add("FRND.CEIL", {R(9), R(3)})
      .add("FRND", {R(10), R(3)})
      .add("EXIT", {});
  rig.run();
  EXPECT_EQ(rig.reg(1), std::bit_cast<uint32_t>(-3.0F));
  EXPECT_EQ(rig.reg(2), std::bit_cast<uint32_t>(4294967293.0F));
  EXPECT_EQ(rig.reg(4), static_cast<uint32_t>(-2));
  EXPECT_EQ(rig.reg(5), static_cast<uint32_t>(-3));
  EXPECT_EQ(rig.reg(6), 0U);
  EXPECT_EQ(rig.reg(7), float_to_half(-2.5F));
  EXPECT_EQ(rig.reg(8), std::bit_cast<uint32_t>(-2.5F));
  EXPECT_EQ(rig.reg(9), std::bit_cast<uint32_t>(-2.0F));
  EXPECT_EQ(rig.reg(10), std::bit_cast<uint32_t>(-2.0F));  // nearest even
}

// sm_90 converts integers with I2FP.F32.{U32,S32} and rounds FP32 to BF16 with
// F2F.BF16.F32 (nearest even, the result in the low half).
TEST(EmuIntMisc, Sm90IntToFloatAndBf16Rounding) {
  Rig rig;
  rig.add("MOV", {R(0), I(0xfffffffd)})  // -3 as S32, 4294967293 as U32
      .add("I2FP.F32.U32", {R(1), R(0)})
      .add("I2FP.F32.S32", {R(2), R(0)})
      .add("MOV", {R(3), I(4097)})
      .add("I2FP.F32.U32", {R(4), R(3)})
      .add("MOV", {R(5), I(std::bit_cast<uint32_t>(1.00390625F))})  // 1 + 2^-8: a tie
      .add("F2F.BF16.F32", {R(6), R(5)})
      .add("MOV", {R(7), I(std::bit_cast<uint32_t>(1.005859375F))})  // 1 + 2^-8 + 2^-9
      .add("F2F.BF16.F32", {R(8), R(7)})
      .add("EXIT", {});
  rig.run();
  EXPECT_EQ(rig.reg(1), std::bit_cast<uint32_t>(4294967296.0F));  // 2^32 - 3 rounds up
  EXPECT_EQ(rig.reg(2), std::bit_cast<uint32_t>(-3.0F));
  EXPECT_EQ(rig.reg(4), std::bit_cast<uint32_t>(4097.0F));
  EXPECT_EQ(rig.reg(6), 0x3f80U);  // to even: 1.0
  EXPECT_EQ(rig.reg(8), 0x3f81U);  // up: 1 + 2^-7
}

// R2UR copies a vector register into a uniform one: the value of the first lane the
// guard leaves active.
TEST(EmuIntMisc, R2urTakesTheFirstActiveLane) {
  Rig rig;
  rig.add("S2R", {R(0), SR("SR_TID.X")})
      .add("IADD3", {R(1), R(0), I(5), R(255)})  // lane + 5
      .add("ISETP.GE.U32.AND", {P(0), P(7), R(0), I(4), P(7)})
      .add("R2UR", {UR(4), R(1)}, "@P0")  // lanes 4..31: lane 4's 9
      .add("R2UR", {UR(5), R(1)})         // all lanes: lane 0's 5
      .add("MOV", {R(2), UR(4)})
      .add("MOV", {R(3), UR(5)})
      .add("EXIT", {});
  rig.run();
  for (unsigned lane : {0U, 7U, 31U}) {
    EXPECT_EQ(rig.reg(2, lane), 9U) << lane;
    EXPECT_EQ(rig.reg(3, lane), 5U) << lane;
  }
}

// VOTEU puts the vote of the active lanes in a uniform predicate (and the ballot in a
// uniform register when it names one).
TEST(EmuIntMisc, VoteuWritesUniformPredicates) {
  Rig rig;
  rig.add("S2R", {R(0), SR("SR_TID.X")})
      .add("ISETP.GE.U32.AND", {P(0), P(7), R(0), I(4), P(7)})  // lanes 4..31
      .add("VOTEU.ALL", {UP(0), P(0)})
      .add("VOTEU.ANY", {UR(6), UP(1), P(0)})
      .add("ISETP.GE.U32.AND", {P(1), P(7), R(0), I(0), P(7)})  // every lane
      .add("VOTEU.ALL", {UP(2), P(1)})
      .add("MOV", {R(1), UR(6)})
      .add("EXIT", {});
  rig.run();
  const Warp& w = rig.warp();
  EXPECT_EQ(w.up[0], 0U);
  EXPECT_EQ(w.up[1], 1U);
  EXPECT_EQ(w.up[2], 1U);
  EXPECT_EQ(rig.reg(1, 3), 0xfffffff0U);
}

// sm_90 writes IMNMX as VIMNMX: the predicate picks the minimum (PT) or maximum (!PT).
TEST(EmuIntMisc, Vimnmx) {
  Rig rig;
  rig.add("MOV", {R(0), I(0xfffffffe)})  // -2, or 2^32 - 2 unsigned
      .add("MOV", {R(1), I(7)})
      .add("VIMNMX.U32", {R(2), R(0), R(1), P(7)})
      .add("VIMNMX.U32", {R(3), R(0), R(1), P(7, true)})
      .add("VIMNMX", {R(4), R(0), R(1), P(7)})
      .add("VIMNMX", {R(5), R(0), R(1), P(7, true)})
      .add("EXIT", {});
  rig.run();
  EXPECT_EQ(rig.reg(2), 7U);
  EXPECT_EQ(rig.reg(3), 0xfffffffeU);
  EXPECT_EQ(rig.reg(4), 0xfffffffeU);
  EXPECT_EQ(rig.reg(5), 7U);
}

// sm_90's VIADDMNMX: the minimum (PT) or maximum (!PT) of Ra + Rb and Rc, as nvcc writes
// min(begin + chunk, n) and max(a - b, c).
TEST(EmuIntMisc, Viaddmnmx) {
  Rig rig;
  rig.add("MOV", {R(0), I(0xfffffffe)})  // -2, or 2^32 - 2 unsigned
      .add("MOV", {R(1), I(5)})
      .add("MOV", {R(2), I(4)})
      .add("VIADDMNMX.U32", {R(3), R(1), R(2), I(7), P(7)})        // min(9, 7)
      .add("VIADDMNMX.U32", {R(4), R(1), R(2), I(7), P(7, true)})  // max(9, 7)
      .add("VIADDMNMX.U32", {R(5), R(1), neg(R(2)), R(0), P(7)})   // min(1, 2^32 - 2)
      .add("VIADDMNMX", {R(6), R(0), R(255), R(2), P(7)})          // signed min(-2, 4)
      .add("VIADDMNMX.U32", {R(7), R(0), R(255), R(2), P(7)})      // unsigned min
      .add("EXIT", {});
  rig.run();
  EXPECT_EQ(rig.reg(3), 7U);
  EXPECT_EQ(rig.reg(4), 9U);
  EXPECT_EQ(rig.reg(5), 1U);
  EXPECT_EQ(rig.reg(6), 0xfffffffeU);
  EXPECT_EQ(rig.reg(7), 4U);
}

}  // namespace
}  // namespace sassim::emu::testing
