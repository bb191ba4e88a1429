// FP64 arithmetic, Volta's barrier-register moves and extended addresses, and scaled
// shared addresses: the forms the microbenchmark listings use.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "ground/error.h"
#include "tests/emu/emu_rig.h"

namespace sassim::emu::testing {
namespace {

uint64_t dbits(double d) {
  return std::bit_cast<uint64_t>(d);
}
// MOV instructions setting the pair R(r), R(r + 1) to `d`.
Rig& set_double(Rig& rig, uint32_t r, double d) {
  return rig.add("MOV", {R(r), I(static_cast<int64_t>(dbits(d) & 0xffffffffU))})
      .add("MOV", {R(r + 1), I(static_cast<int64_t>(dbits(d) >> 32))});
}

TEST(EmuFp64, AddMulFmaRoundOnceAsTheirModifiersSay) {
  Rig rig;
  set_double(rig, 0, 1.0);
  set_double(rig, 2, 0x1p-60);
  set_double(rig, 4, 0x1p-1074);  // the smallest subnormal
  set_double(rig, 6, 1.0 + 0x1p-52);
  rig.add("DADD", {R(8), R(0), R(2)})       // 1 + 2^-60 rounds to 1
      .add("DADD.RP", {R(10), R(0), R(2)})  // ... upwards to 1 + 2^-52
      .add("DADD", {R(12), R(4), R(4)})     // subnormals are kept: 2^-1073
      .add("DMUL", {R(14), R(6), neg(R(6))})
      // (1 + 2^-52)^2 - (1 + 2^-51) = 2^-104 exactly with one rounding, 0 with two.
      .add("DADD", {R(16), R(6), R(6)})
      .add("DADD", {R(16), R(16), neg(R(0))})
      .add("DFMA", {R(18), R(6), R(6), neg(R(16))})
      .add("DADD", {R(20), R(0), F(0.5)})
      .add("DSETP.GT.AND", {P(0), P(1), R(10), R(0), P(7)})
      .add("DSETP.NEU.AND", {P(2), P(7), R(8), R(0), P(7)})
      .add("EXIT", {});
  rig.run();
  auto d = [&](uint16_t r) {
    return rig.reg(r) | (uint64_t{rig.reg(static_cast<uint16_t>(r + 1))} << 32);
  };
  EXPECT_EQ(d(8), dbits(1.0));
  EXPECT_EQ(d(10), dbits(1.0 + 0x1p-52));
  EXPECT_EQ(d(12), dbits(0x1p-1073));
  EXPECT_EQ(d(14), dbits(-(1.0 + 0x1p-51)));  // the 2^-104 term rounds away
  EXPECT_EQ(d(18), dbits(0x1p-104));
  EXPECT_EQ(d(20), dbits(1.5));
  EXPECT_EQ(rig.warp().p[0] & 1U, 1U);
  EXPECT_EQ(rig.warp().p[1] & 1U, 0U);
  EXPECT_EQ(rig.warp().p[2] & 1U, 0U);
}

TEST(EmuVolta, BmovReadsClearsAndWritesConvergenceBarriers) {
  // Lanes 0..15 take the branch; inside, BMOV reads B0 (the BSSY mask), clears it, and
  // writes B1 from a register; all lanes meet again at BSYNC B1.
  Rig rig;
  rig.add("S2R", {R(0), SR("SR_LANEID")})                        // 0x00
      .add("BMOV.32.CLEAR", {R(255), B(0)})                      // 0x10
      .add("BSSY", {B(0), L(0xa0)})                              // 0x20
      .add("BMOV.32", {R(5), B(0)})                              // 0x30: all 32 lanes
      .add("BMOV.32.CLEAR", {R(6), B(0)})                        // 0x40
      .add("BMOV.32", {R(7), B(0)})                              // 0x50: cleared
      .add("MOV", {R(8), I(0xffffffff)})                         // 0x60
      .add("BMOV.32", {B(1), R(8)})                              // 0x70
      .add("ISETP.GE.U32.AND", {P(0), P(7), R(0), I(16), P(7)})  // 0x80
      .add("BRA", {L(0xa0)}, "@P0")                              // 0x90
      .add("BSYNC", {B(1)})                                      // 0xa0
      .add("EXIT", {});                                          // 0xb0
  rig.run();
  EXPECT_EQ(rig.reg(5, 3), 0xffffffffU);
  EXPECT_EQ(rig.reg(6, 3), 0xffffffffU);
  EXPECT_EQ(rig.reg(7, 3), 0U);
  EXPECT_EQ(rig.warp().bssy[1], 0xffffffffU);
  EXPECT_EQ(rig.warp().trace.back().mask, 0xffffffffU);
}

TEST(EmuVolta, ExtendedAddressesArePairsAndScaledSharedAddresses) {
  Rig rig;
  const uint64_t base = rig.memory().allocate("data", 256);
  uint32_t seven = 7;
  std::memcpy(rig.memory().buffer(0).data() + 8, &seven, 4);
  sass::Operand x8 = M(2, false, -8);
  x8.mem.scale = 8;
  rig.add("MOV", {R(2), I(static_cast<int64_t>(base & 0xffffffffU) + 8)})
      .add("MOV", {R(3), I(static_cast<int64_t>(base >> 32))})
      .add("LDG.E.SYS", {R(4), M(2)})  // sm_70: [R2] with .E is the pair R2:R3
      .add("MOV", {R(2), I(3)})
      .add("MOV", {R(3), I(0)})
      .add("STS.64", {x8, R(2)})  // [R2.X8+-0x8]: 3 * 8 - 8 = 16
      .add("EXIT", {});
  rig.run(1);
  EXPECT_EQ(rig.reg(4), 7U);
  uint32_t stored;
  std::memcpy(&stored, rig.cta().shared.data() + 16, 4);
  EXPECT_EQ(stored, 3U);
}

TEST(EmuVolta, BmovNeedsOneBarrierAndOneRegister) {
  Rig rig;
  rig.add("BMOV.32", {R(1), B(0), R(2)}).add("EXIT", {});
  EXPECT_THROW(rig.run(), Error);
}

}  // namespace
}  // namespace sassim::emu::testing
