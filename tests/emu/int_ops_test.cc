// Semantics of the integer operations whose corner cases are easy to get wrong.
#include <gtest/gtest.h>

#include "tests/emu/emu_rig.h"

namespace sassim::emu::testing {
namespace {

TEST(EmuIntOps, Iadd3CarryChainsIntoIadd3X) {
  Rig rig;
  rig.add("MOV", {R(0), I(0xffffffff)})
      .add("MOV", {R(1), I(0x2)})
      .add("IADD3", {R(2), P(0), P(1), R(0), R(1), R(0)})  // 0xffffffff + 2 + 0xffffffff
      .add("IADD3.X", {R(3), R(255), R(255), R(255), P(0), P(1)})
      .add("IADD3", {R(4), neg(R(1)), I(1), R(255)})  // -2 + 1
      .add("EXIT", {});
  rig.run();
  EXPECT_EQ(rig.reg(2), 0x00000000U);  // 0x2_0000_0000: carry 2
  EXPECT_EQ(rig.reg(3), 2U);           // both carry predicates set
  EXPECT_EQ(rig.reg(4), 0xffffffffU);
}

TEST(EmuIntOps, Lop3AppliesTheLookupTable) {
  Rig rig;
  rig.add("MOV", {R(0), I(0xf0f0f0f0)})
      .add("MOV", {R(1), I(0xcccccccc)})
      .add("MOV", {R(2), I(0xaaaaaaaa)})
      .add("LOP3.LUT", {R(3), R(0), R(1), R(2), I(0x96), P(7, true)})  // a ^ b ^ c
      .add("LOP3.LUT", {R(4), R(0), R(1), R(2), I(0xe8), P(7, true)})  // majority
      .add("LOP3.LUT", {P(2), R(5), R(0), I(0x1), R(255), I(0xc0), P(7, true)})
      .add("EXIT", {});
  rig.run();
  EXPECT_EQ(rig.reg(3), 0xf0f0f0f0U ^ 0xccccccccU ^ 0xaaaaaaaaU);
  EXPECT_EQ(rig.reg(4), 0xe8e8e8e8U);
  EXPECT_EQ(rig.reg(5), 0U);
  EXPECT_EQ(rig.warp().p[2] & 1U, 0U);  // (a & 1) == 0
}

TEST(EmuIntOps, FunnelShifts) {
  Rig rig;
  rig.add("MOV", {R(0), I(0x80000001)})
      .add("MOV", {R(1), I(0x12345678)})
      .add("SHF.L.W.U32.HI", {R(2), R(0), I(36), R(1)})  // wraps to 4
      .add("SHF.R.U64", {R(3), R(0), I(4), R(1)})        // low word of (R1:R0) >> 4
      .add("SHF.R.U32.HI", {R(4), R(255), I(5), R(0)})
      .add("SHF.R.S32.HI", {R(5), R(255), I(4), R(0)})
      .add("SHF.L.U64.HI", {R(6), R(0), I(1), R(1)})
      .add("EXIT", {});
  rig.run();
  EXPECT_EQ(rig.reg(2), 0x23456788U);
  EXPECT_EQ(rig.reg(3), 0x88000000U);
  EXPECT_EQ(rig.reg(4), 0x04000000U);
  EXPECT_EQ(rig.reg(5), 0xf8000000U);
  EXPECT_EQ(rig.reg(6), 0x2468acf1U);
}

TEST(EmuIntOps, ImadWideHiAndX) {
  Rig rig;
  rig.add("MOV", {R(0), I(0xfffffffe)})  // -2 signed
      .add("MOV", {R(1), I(0x10)})
      .add("MOV", {R(2), I(0xffffffff)})
      .add("MOV", {R(3), I(0x1)})
      .add("IMAD.WIDE.U32", {R(4), R(0), R(1), R(2, {"64"})})  // 0xfffffffe*16 + 0x1ffffffff
      .add("IMAD.WIDE", {R(6), R(0), R(1), R(255)})            // -32
      .add("MOV", {R(12), I(0x80000000)})
      .add("MOV", {R(13), I(0x5)})
      // A register addend is the pair R13:R12: (0xf_ffffffe0 + 0x5_80000000) >> 32.
      .add("IMAD.HI.U32", {R(8), R(0), R(1), R(12)})
      .add("IMAD.HI.U32", {R(11), R(0), R(1), I(0x1)})  // an immediate adds to the high word
      .add("IADD3", {R(9), P(0), R(2), R(3), R(255)})
      .add("IMAD.X", {R(10), R(255), R(255), R(3), P(0)})  // 1 + carry
      .add("EXIT", {});
  rig.run();
  const uint64_t wide = uint64_t{rig.reg(5)} << 32 | rig.reg(4);
  EXPECT_EQ(wide, 0xfffffffeULL * 16 + 0x1ffffffffULL);
  EXPECT_EQ(uint64_t{rig.reg(7)} << 32 | rig.reg(6), static_cast<uint64_t>(-32));
  EXPECT_EQ(rig.reg(8), 0x15U);
  EXPECT_EQ(rig.reg(11), 0x10U);
  EXPECT_EQ(rig.reg(10), 2U);
}

TEST(EmuIntOps, IsetpExChainsCompare64Bits) {
  // a = 0x1_00000000, b = 0x0_ffffffff: a > b although a.lo < b.lo.
  Rig rig;
  rig.add("MOV", {R(0), I(0)})
      .add("MOV", {R(1), I(1)})
      .add("MOV", {R(2), I(0xffffffff)})
      .add("MOV", {R(3), I(0)})
      .add("ISETP.GT.U32.AND", {P(0), P(7), R(0), R(2), P(7)})
      .add("ISETP.GT.U32.AND.EX", {P(1), P(7), R(1), R(3), P(7), P(0)})
      .add("ISETP.NE.AND", {P(2), P(3), R(0), R(255), P(7)})  // 0 != 0 false; !cmp true
      .add("ISETP.LT.OR", {P(4), P(7), R(2), R(0), P(2)})     // signed -1 < 0
      .add("EXIT", {});
  rig.run();
  const Warp& w = rig.warp();
  EXPECT_EQ(w.p[0] & 1U, 0U);
  EXPECT_EQ(w.p[1] & 1U, 1U);
  EXPECT_EQ(w.p[2] & 1U, 0U);
  EXPECT_EQ(w.p[3] & 1U, 1U);
  EXPECT_EQ(w.p[4] & 1U, 1U);
}

TEST(EmuIntOps, PrmtLeaHiXAndSel) {
  Rig rig;
  rig.add("MOV", {R(0), I(0x44332211)})
      .add("MOV", {R(1), I(0x88776655)})
      .add("PRMT", {R(2), R(0), I(0x7531), R(1)})
      .add("PRMT", {R(3), R(0), I(0x8880), R(1)})  // byte 0 then sign of byte 0 (0x11 > 0)
      .add("MOV", {R(4), I(0xc0000001)})
      .add("MOV", {R(5), I(0x3)})
      .add("LEA", {R(6), P(0), R(4), R(4), I(2)})               // (R4 << 2) + R4 with carry
      .add("LEA.HI.X", {R(7), R(4), R(255), R(5), I(2), P(0)})  // high of (R5:R4) << 2, + carry
      .add("SEL", {R(8), R(0), R(1), P(0)})
      .add("EXIT", {});
  rig.run();
  EXPECT_EQ(rig.reg(2), 0x88664422U);
  EXPECT_EQ(rig.reg(3), 0x00000011U);
  EXPECT_EQ(rig.reg(6), 0xc0000005U);  // 0x3_00000004 + 0xc0000001: no carry out
  EXPECT_EQ(rig.reg(7), 0x0000000fU);  // (0x3 << 2) | (0xc0000001 >> 30)
  EXPECT_EQ(rig.reg(8), 0x88776655U);
}

}  // namespace
}  // namespace sassim::emu::testing
