// Divergence, reconvergence, barriers, shuffles and the instruction counts they leave
// in the trace.
#include <gtest/gtest.h>

#include "ground/error.h"
#include "tests/emu/emu_rig.h"

namespace sassim::emu::testing {
namespace {

TEST(EmuControl, DivergentIfElseReconvergesAtBsync) {
  // if (lane < 8) r2 = 1 else r2 = 2; then every lane adds 10 once, together.
  Rig rig;
  rig.add("S2R", {R(0), SR("SR_LANEID")})                       // 0x00
      .add("ISETP.GE.U32.AND", {P(0), P(7), R(0), I(8), P(7)})  // 0x10
      .add("BSSY", {B(0), L(0x70)})                             // 0x20
      .add("BRA", {L(0x60)}, "@P0")                             // 0x30
      .add("MOV", {R(2), I(1)})                                 // 0x40
      .add("BRA", {L(0x70)})                                    // 0x50
      .add("MOV", {R(2), I(2)})                                 // 0x60
      .add("BSYNC", {B(0)})                                     // 0x70
      .add("IADD3", {R(2), R(2), I(10), R(255)})                // 0x80
      .add("EXIT", {});                                         // 0x90
  rig.run();
  for (unsigned lane = 0; lane < 32; ++lane) EXPECT_EQ(rig.reg(2, lane), lane < 8 ? 11U : 12U);
  const auto& trace = rig.warp().trace;
  // 4 converged, then the lowest PC first: MOV, BRA (lanes 0..7), MOV (lanes 8..31); the
  // lanes meet at the BSYNC, which runs once, converged, like the IADD3 and EXIT.
  ASSERT_EQ(trace.size(), 10U);
  EXPECT_EQ(trace[3].mask, 0xffffff00U);  // @P0 BRA: lanes 8..31 take it
  EXPECT_EQ(trace[4].mask, 0x000000ffU);  // MOV R2, 1
  EXPECT_EQ(trace[5].mask, 0x000000ffU);  // BRA
  EXPECT_EQ(trace[6].mask, 0xffffff00U);  // MOV R2, 2
  EXPECT_EQ(trace[7].inst, 7U);           // BSYNC
  EXPECT_EQ(trace[8].mask, 0xffffffffU);  // IADD3
  EXPECT_EQ(trace[8].inst, 8U);
}

TEST(EmuControl, BreakLetsTheBsyncGoWithoutTheLanesThatLeft) {
  // Lanes 0..7 leave barrier B0 and jump past its BSYNC; lanes 8..31 then pass the BSYNC
  // without waiting for them, and all 32 meet again at the IADD3.
  Rig rig;
  rig.add("S2R", {R(0), SR("SR_LANEID")})                       // 0x00
      .add("ISETP.LT.U32.AND", {P(0), P(7), R(0), I(8), P(7)})  // 0x10
      .add("BSSY", {B(0), L(0x70)})                             // 0x20
      .add("BREAK", {B(0)}, "@P0")                              // 0x30
      .add("BRA", {L(0x80)}, "@P0")                             // 0x40
      .add("MOV", {R(2), I(2)})                                 // 0x50
      .add("MOV", {R(3), I(3)})                                 // 0x60
      .add("BSYNC", {B(0)})                                     // 0x70
      .add("IADD3", {R(2), R(2), I(10), R(255)})                // 0x80
      .add("EXIT", {});                                         // 0x90
  rig.run();
  for (unsigned lane = 0; lane < 32; ++lane) EXPECT_EQ(rig.reg(2, lane), lane < 8 ? 10U : 12U);
  const auto& trace = rig.warp().trace;
  // S2R, ISETP, BSSY, BREAK, BRA, MOV, MOV, BSYNC (lanes 8..31), IADD3 and EXIT converged.
  ASSERT_EQ(trace.size(), 10U);
  EXPECT_EQ(trace[3].inst, 3U);  // BREAK
  EXPECT_EQ(trace[7].inst, 7U);  // BSYNC
  EXPECT_EQ(trace[7].mask, 0xffffff00U);
  EXPECT_EQ(trace[8].inst, 8U);  // IADD3, once for the whole warp
  EXPECT_EQ(trace[8].mask, 0xffffffffU);
}

TEST(EmuControl, LoopWithPerLaneTripCounts) {
  // Lane l iterates l + 1 times; lanes leave the loop at different times and meet after it.
  Rig rig;
  rig.add("S2R", {R(0), SR("SR_LANEID")})                       // 0x00
      .add("MOV", {R(1), I(0)})                                 // 0x10
      .add("IADD3", {R(1), R(1), I(1), R(255)})                 // 0x20 loop:
      .add("ISETP.LE.U32.AND", {P(0), P(7), R(1), R(0), P(7)})  // 0x30
      .add("BRA", {L(0x20)}, "@P0")                             // 0x40
      .add("MOV", {R(2), R(1)})                                 // 0x50
      .add("EXIT", {});
  rig.run();
  for (unsigned lane = 0; lane < 32; ++lane) EXPECT_EQ(rig.reg(2, lane), lane + 1);
  // 2 + 32 iterations x 3 + 2: the lanes that left wait until the loop is done.
  EXPECT_EQ(rig.warp().trace.size(), 2U + 32 * 3 + 2);
}

TEST(EmuControl, ShuffleModes) {
  Rig rig;
  rig.add("S2R", {R(0), SR("SR_LANEID")})
      .add("SHFL.DOWN", {P(0), R(1), R(0), I(4), I(0x1f)})
      .add("SHFL.UP", {P(1), R(2), R(0), I(1), I(0)})
      .add("SHFL.BFLY", {P(7), R(3), R(0), I(3), I(0x1f)})
      .add("SHFL.IDX", {P(7), R(4), R(0), I(5), I(0x1f)})
      .add("SHFL.IDX", {P(7), R(5), R(0), I(1), I(0x181f)})  // within groups of 8 (segmask 0x18)
      .add("EXIT", {});
  rig.run();
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(rig.reg(1, l), l + 4 <= 31 ? l + 4 : l) << l;
    EXPECT_EQ(rig.reg(2, l), l >= 1 ? l - 1 : l) << l;
    EXPECT_EQ(rig.reg(3, l), l ^ 3U) << l;
    EXPECT_EQ(rig.reg(4, l), 5U) << l;
    EXPECT_EQ(rig.reg(5, l), (l & ~7U) | 1U) << l;
  }
  EXPECT_EQ(rig.warp().p[0], 0x0fffffffU);  // DOWN by 4: lanes 28..31 out of range
  EXPECT_EQ(rig.warp().p[1], 0xfffffffeU);
}

TEST(EmuControl, BarrierOrdersSharedMemoryBetweenWarps) {
  // Warp 1 stores its lane ids to shared memory; after BAR.SYNC warp 0 reads them.
  Rig rig;
  rig.add("S2R", {R(0), SR("SR_TID.X")})
      .add("SHF.L.U32", {R(1), R(0), I(2), R(255)})
      .add("STS", {M(1), R(0)})
      .add("BAR.SYNC.DEFER_BLOCKING", {I(0)})
      .add("LOP3.LUT", {R(2), R(1), I(0x80), R(255), I(0x3c), P(7, true)})  // other warp's slot
      .add("LDS", {R(3), M(2)})
      .add("EXIT", {});
  rig.run(64);
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(rig.reg(3, l, 0), l + 32);
    EXPECT_EQ(rig.reg(3, l, 1), l);
  }
}

TEST(EmuControl, UnsupportedOpcodeNamesOpcodeLineAndPc) {
  Rig rig;
  rig.add("MOV", {R(0), I(1)}).add("DMNMX", {R(2), R(0), R(0)}).add("EXIT", {});
  try {
    rig.run();
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "test.sass:101: PC 0x0010: DMNMX: unsupported opcode DMNMX");
  }
}

TEST(EmuControl, UnsupportedModifierAndBadAccessAreErrors) {
  Rig bad_mod;
  bad_mod.add("SHF.X9", {R(0), R(0), I(1), R(0)});
  EXPECT_THROW(bad_mod.run(), Error);
  Rig bad_address;
  bad_address.add("MOV", {R(0), I(0x1000)}).add("LDS", {R(1), M(0)}).add("EXIT", {});
  try {
    bad_address.run();
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "test.sass:101: PC 0x0010: LDS: shared address 0x1000 (4 bytes) is "
                 "beyond the 4096 bytes of shared memory");
  }
}

TEST(EmuControl, EndlessLoopStopsAtTheInstructionLimit) {
  Rig rig;
  rig.add("BRA", {L(0)});
  EXPECT_THROW(rig.run(), Error);
}

}  // namespace
}  // namespace sassim::emu::testing
