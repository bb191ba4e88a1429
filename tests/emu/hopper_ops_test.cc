// Hopper's asynchronous operations in the executor: mbarriers across warps (a try-wait
// holds its warp instead of spinning, so the trace has one line per wait), TMA tensor
// loads with the 128-byte swizzle and out-of-bounds fill, ELECT, BRA with a predicate
// operand and .ANY, and the errors for barriers no warp can complete.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ground/error.h"
#include "tests/emu/hopper_rig.h"

namespace sassim::emu::testing {
namespace {

using ::testing::HasSubstr;

TEST(EmuHopper, TryWaitHoldsItsWarpUntilAnotherWarpArrives) {
  Rig rig;
  rig.add("S2R", {R(0), SR("SR_TID.X")});                                // 0x00
  init_barrier(rig);                                                     // 0x10..0x40
  rig.add("ISETP.GE.U32.AND", {P(0), P(7), R(0), I(32), P(7)})           // 0x50: warp 1
      .add("BRA", {L(0xc0)}, "@P0")                                      // 0x60
      .add("MOV", {R(1), I(0)})                                          // 0x70: parity 0
      .add("SYNCS.PHASECHK.TRANS64.TRYWAIT", {P(1), UM(6), R(1)})        // 0x80
      .add("BRA", {L(0x80)}, "@!P1")                                     // 0x90
      .add("MOV", {R(2), I(7)})                                          // 0xa0
      .add("EXIT", {})                                                   // 0xb0
      .add("ISETP.EQ.U32.AND", {P(2), P(7), R(0), I(32), P(7)})          // 0xc0: one lane
      .add("SYNCS.ARRIVE.TRANS64.A1T0", {R(255), UM(6), R(255)}, "@P2")  // 0xd0
      .add("EXIT", {});                                                  // 0xe0
  rig.run(64);
  EXPECT_EQ(rig.reg(2, 0, 0), 7U);
  EXPECT_EQ(rig.reg(2, 31, 0), 7U);
  // Warp 0: S2R, 4 init, ISETP, BRA, MOV, one TRYWAIT (passed), BRA, MOV, EXIT.
  const auto& trace = rig.warp(0).trace;
  ASSERT_EQ(trace.size(), 12U);
  EXPECT_EQ(rig.program().insts[trace[8].inst].pc, 0x80U);
  EXPECT_EQ(trace[8].mask, ~0U);
  // Its record: the barrier, then the parity waited for.
  ASSERT_EQ(trace[8].addr_count, 2U);
  EXPECT_EQ(rig.warp(0).addrs[trace[8].addr_begin], kBar);
  EXPECT_EQ(rig.warp(0).addrs[trace[8].addr_begin + 1], 0U);
  EXPECT_EQ(rig.cta().mbarriers.at(kBar).phase, 1U);
}

TEST(EmuHopper, AWaitNoWarpCanCompleteIsAnError) {
  Rig rig;
  init_barrier(rig);
  rig.add("SYNCS.PHASECHK.TRANS64.TRYWAIT", {P(1), UM(6), R(255)})  // 0x40
      .add("BRA", {L(0x40)}, "@!P1")
      .add("EXIT", {});
  EXPECT_THAT(error_of(rig), HasSubstr("made no progress: waiting on phases no warp can complete "
                                       "(warp 0 at PC 0x0040 (an mbarrier phase))"));
}

TEST(EmuHopper, MisusedBarriersAreErrors) {
  {
    Rig rig;  // a wait on a barrier never initialised
    rig.add("UMOV", {UR(6), I(kBar)})
        .add("SYNCS.PHASECHK.TRANS64.TRYWAIT", {P(1), UM(6), R(255)})
        .add("EXIT", {});
    EXPECT_THAT(error_of(rig),
                HasSubstr("the mbarrier at shared offset 0x100 was not initialised"));
  }
  {
    Rig rig;  // a second arrival while the phase waits only for its 64 bytes
    init_barrier(rig);
    rig.add("S2R", {R(0), SR("SR_LANEID")})                         // 0x40
        .add("ISETP.EQ.U32.AND", {P(0), P(7), R(0), I(0), P(7)})    // 0x50
        .add("MOV", {R(3), I(64)})                                  // 0x60
        .add("SYNCS.ARRIVE.TRANS64", {R(255), UM(6), R(3)}, "@P0")  // 0x70
        .add("SYNCS.ARRIVE.TRANS64.A1T0", {R(255), UM(6), R(255)}, "@P0")
        .add("EXIT", {});
    EXPECT_THAT(error_of(rig),
                HasSubstr("test.sass:108: PC 0x0080: SYNCS.ARRIVE.TRANS64.A1T0: more "
                          "arrivals than the mbarrier expects"));
  }
  {
    Rig rig;  // not the value mbarrier.init stores
    rig.add("UMOV", {UR(4), I(3)})
        .add("UMOV", {UR(6), I(kBar)})
        .add("SYNCS.EXCH.64", {UR(63), UM(6), UR(4)})
        .add("EXIT", {});
    EXPECT_THAT(error_of(rig), HasSubstr("value 0x3 is not an mbarrier initialisation"));
  }
}

// A 12 x 64 BF16 matrix (element (r, c) holds r * 64 + c) behind a tensor map of 8 x 64
// boxes with the 128-byte swizzle; one lane loads the box at row `row0` into shared
// offset 0x400 on the barrier, expecting its 1024 bytes, and the warp waits for it.
Rig& tma_load(Rig& rig, int64_t row0) {
  const uint64_t matrix = rig.memory().allocate("m", 12 * 64 * 2);
  for (uint16_t i = 0; i < 12 * 64; ++i) std::memcpy(rig.memory().buffer(0).data() + 2 * i, &i, 2);
  tensor_map_in_ur12(rig, {12, 64, 2, 8, 64, 128}, matrix);
  rig.add("S2R", {R(0), SR("SR_LANEID")});
  init_barrier(rig);
  rig.add("ISETP.EQ.U32.AND", {P(0), P(7), R(0), I(0), P(7)})
      .add("MOV", {R(3), I(1024)})
      .add("SYNCS.ARRIVE.TRANS64", {R(255), UM(6), R(3)}, "@P0")
      .add("UMOV", {UR(8), I(0x400)})  // destination
      .add("UMOV", {UR(9), I(kBar)})   // mbarrier
      .add("UMOV", {UR(10), I(0)})     // column
      .add("UMOV", {UR(11), I(row0)})  // row
      .add("UTMALDG.2D", {UM(8), UM(12)}, "@P0")
      .add("SYNCS.PHASECHK.TRANS64.TRYWAIT", {P(1), UM(6), R(255)})
      .add("EXIT", {});
  return rig;
}

TEST(EmuHopper, TmaLoadSwizzlesTheBoxAndCompletesTheBarrier) {
  Rig rig;
  const Cta& cta = tma_load(rig, 2).run(32);
  // Row r's 16-byte chunk j lands at chunk j ^ (r % 8) of its 128-byte row.
  for (uint32_t r = 0; r < 8; ++r) {
    for (uint32_t c = 0; c < 64; ++c) {
      const uint32_t at = 0x400 + r * 128 + (((c / 8) ^ (r % 8)) * 16) + (c % 8) * 2;
      ASSERT_EQ(shared_u16(cta, at), (2 + r) * 64 + c) << "row " << r << " column " << c;
    }
  }
  EXPECT_EQ(cta.mbarriers.at(kBar).phase, 1U);
  EXPECT_EQ(rig.warp().p[1], ~0U);  // the wait passed on every lane
  // The copy's record: barrier, bytes, bytes out of bounds, multicast mask (none), then
  // one transfer per row.
  const Warp& w = rig.warp();
  const TraceRecord& copy = w.trace[w.trace.size() - 3];
  ASSERT_EQ(copy.addr_count, 4U + 8U);
  EXPECT_EQ(w.addrs[copy.addr_begin], kBar);
  EXPECT_EQ(w.addrs[copy.addr_begin + 1], 1024U);
  EXPECT_EQ(w.addrs[copy.addr_begin + 2], 0U);
  EXPECT_EQ(w.addrs[copy.addr_begin + 3], 0U);
  EXPECT_EQ(w.addrs[copy.addr_begin + 5] - w.addrs[copy.addr_begin + 4], 128U);
}

TEST(EmuHopper, TmaLoadFillsRowsOutOfBoundsWithZeros) {
  Rig rig;
  const Cta& cta = tma_load(rig, 8).run(32);  // rows 8..11 exist, 12..15 do not
  EXPECT_EQ(shared_u16(cta, 0x400), 8U * 64);
  for (uint32_t r = 4; r < 8; ++r) EXPECT_EQ(shared_u16(cta, 0x400 + r * 128), 0U) << r;
  const Warp& w = rig.warp();
  const TraceRecord& copy = w.trace[w.trace.size() - 3];
  ASSERT_EQ(copy.addr_count, 4U + 4U);
  EXPECT_EQ(w.addrs[copy.addr_begin + 1], 1024U);  // the barrier counts the whole box
  EXPECT_EQ(w.addrs[copy.addr_begin + 2], 512U);
  EXPECT_EQ(cta.mbarriers.at(kBar).phase, 1U);
}

TEST(EmuHopper, TmaLoadNeedsATensorMapParameter) {
  Rig rig;
  rig.add("UMOV", {UR(12), I(0x280)}).add("UTMALDG.2D", {UM(8), UM(12)}).add("EXIT", {});
  EXPECT_THAT(error_of(rig), HasSubstr("0x280 is not a tensor map parameter of the launch"));
}

TEST(EmuHopper, TmaLoadRefusesABadTensorMap) {
  Rig rig;
  // 3-byte elements: a 16-byte chunk of a row would not hold whole elements.
  tensor_map_in_ur12(rig, {8, 16, 3, 8, 16, 0}, rig.memory().allocate("m", 4096));
  rig.add("UTMALDG.2D", {UM(8), UM(12)}).add("EXIT", {});
  EXPECT_THAT(error_of(rig),
              HasSubstr("tensor map of 3-byte elements, a 8 x 16 box, 0-byte swizzle and 48-byte "
                        "row pitch for 16 columns: expected elements of 1, 2, 4 or 8 bytes"));
}

TEST(EmuHopper, ElectPicksTheLowestCandidateLane) {
  Rig rig;
  rig.add("S2R", {R(0), SR("SR_LANEID")})
      .add("ISETP.GE.U32.AND", {P(0), P(7), R(0), I(5), P(7)})
      .add("ELECT", {P(1), UR(7), P(0)})
      .add("EXIT", {});
  rig.run(32);
  EXPECT_EQ(rig.warp().p[1], 1U << 5);
  EXPECT_EQ(rig.warp().ur[7], 5U);
}

TEST(EmuHopper, BranchPredicateOperandAndAny) {
  Rig rig;
  rig.add("S2R", {R(0), SR("SR_LANEID")})                          // 0x00
      .add("ISETP.LT.U32.AND", {P(0), P(7), R(0), I(16), P(7)})    // 0x10
      .add("LOP3.LUT", {R(1), R(0), I(1), R(255), I(0xc0), I(0)})  // 0x20
      .add("ISETP.EQ.U32.AND", {P(1), P(7), R(1), I(0), P(7)})     // 0x30: even
      .add("BRA", {P(1), L(0x60)}, "@P0")                          // 0x40
      .add("BRA", {L(0x70)})                                       // 0x50
      .add("MOV", {R(2), I(1)})                                    // 0x60
      .add("ISETP.EQ.U32.AND", {P(2), P(7), R(0), I(3), P(7)})     // 0x70
      .add("BRA.U.ANY", {L(0xa0)}, "@P2")                          // 0x80
      .add("MOV", {R(3), I(9)})                                    // 0x90: skipped
      .add("EXIT", {});                                            // 0xa0
  rig.run(32);
  const auto& trace = rig.warp().trace;
  EXPECT_EQ(trace[4].mask, 0x0000ffffU);  // the guard: lanes 0..15
  for (unsigned lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(rig.reg(2, lane), lane < 16 && lane % 2 == 0 ? 1U : 0U) << lane;
    EXPECT_EQ(rig.reg(3, lane), 0U) << lane;  // every lane followed lane 3
  }
}

}  // namespace
}  // namespace sassim::emu::testing
