// Thread block clusters in the executor: the CTAs of a cluster run together, each knows
// its rank (SR_CgaCtaId), the cluster barrier (UCGABAR_ARV / UCGABAR_WAIT) holds every
// warp of every CTA, an arrive reaches another CTA's mbarrier through the rank in bits 24
// and up of its shared address (SYNCS.ARRIVE.TRANS64.RED), a TMA multicast load writes
// the box into every CTA of its mask and completes each one's mbarrier, and the trace
// records say so.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emu/hopper_rig.h"
#include "traces/emu/trace_writer.h"

namespace sassim::emu::testing {
namespace {

using ::testing::HasSubstr;

constexpr Dim3 kPair{2, 1, 1};

// init_barrier with the barrier's address in the cluster's form, as nvcc computes it:
// the CTA's rank (SR_CgaCtaId) in bits 24 and up, UR6 = rank << 24 | kBar.
void init_barrier_of_rank(Rig& rig) {
  rig.add("UMOV", {UR(4), I(kInitLo)})
      .add("UMOV", {UR(5), I(kInitHi)})
      .add("S2UR", {UR(7), SR("SR_CgaCtaId")})
      .add("USHF.L.U32", {UR(7), UR(7), I(24), UR(63)})
      .add("UIADD3", {UR(6), UR(7), I(kBar), UR(63)})
      .add("SYNCS.EXCH.64", {UR(63), UM(6), UR(4)});
}

// Every CTA sets up its barrier; with `cluster_sync` all then meet at the cluster barrier.
// Rank 0's lane 0 arrives on rank 1's barrier; rank 1 waits for it, then R3 = 9.
Rig& remote_arrive(Rig& rig, bool cluster_sync) {
  rig.add("S2R", {R(0), SR("SR_LANEID")}).add("S2R", {R(1), SR("SR_CgaCtaId")});
  init_barrier_of_rank(rig);
  if (cluster_sync) rig.add("UCGABAR_ARV", {}).add("UCGABAR_WAIT", {});
  const uint64_t rank1 = rig.next_pc() + 6 * 16;
  rig.add("ISETP.NE.U32.AND", {P(0), P(7), R(1), I(0), P(7)})
      .add("BRA", {L(rank1)}, "@P0")
      .add("ISETP.EQ.U32.AND", {P(2), P(7), R(0), I(0), P(7)})
      .add("UMOV", {UR(8), I((int64_t{1} << 24) | kBar)})
      .add("SYNCS.ARRIVE.TRANS64.RED.A1T0", {R(255), UM(8), R(255)}, "@P2")
      .add("EXIT", {});
  const uint64_t wait = rig.next_pc() + 16;
  rig.add("MOV", {R(2), I(0)})  // parity 0
      .add("SYNCS.PHASECHK.TRANS64.TRYWAIT", {P(1), UM(6), R(2)})
      .add("BRA", {L(wait)}, "@!P1")
      .add("MOV", {R(3), I(9)})
      .add("EXIT", {});
  return rig;
}

TEST(EmuCluster, RanksAndAnArriveOnAnotherCtasMbarrier) {
  Rig rig;
  remote_arrive(rig, true).run(32, kPair);
  const Cta& first = rig.cta_of_rank(0);
  const Cta& second = rig.cta_of_rank(1);
  EXPECT_EQ(first.id.x, 0U);
  EXPECT_EQ(second.id.x, 1U);
  EXPECT_EQ(first.warps[0].reg(1, 0), 0U);  // SR_CgaCtaId
  EXPECT_EQ(second.warps[0].reg(1, 5), 1U);
  EXPECT_EQ(second.mbarriers.at(kBar).phase, 1U);  // completed by rank 0's arrive
  EXPECT_EQ(first.mbarriers.at(kBar).phase, 0U);
  EXPECT_EQ(second.warps[0].reg(3, 0), 9U);
  // Rank 0's arrive records rank 1's barrier in the cluster window of the trace.
  const Warp& w = first.warps[0];
  const TraceRecord& arrive = w.trace[w.trace.size() - 2];
  EXPECT_EQ(rig.program().insts[arrive.inst].op, Op::kSyncs);
  ASSERT_EQ(arrive.addr_count, 2U);
  EXPECT_EQ(w.addrs[arrive.addr_begin], kTraceSharedBase + (uint64_t{2} << 24) + kBar);
}

TEST(EmuCluster, TheClusterBarrierHoldsEveryCta) {
  // Without it, rank 0 runs first and arrives before rank 1 has set up its barrier.
  Rig rig;
  remote_arrive(rig, false);
  EXPECT_THAT(error_of(rig, kPair),
              HasSubstr("the mbarrier at shared offset 0x100 of cluster rank 1 was not "
                        "initialised"));
}

TEST(EmuCluster, TmaMulticastWritesEveryCtaOfItsMask) {
  // A 12 x 64 BF16 matrix (element (r, c) holds r * 64 + c); each CTA expects the 1024
  // bytes of the 8 x 64 box at row 2 on its barrier, and rank 0 loads it for both.
  Rig rig;
  const uint64_t matrix = rig.memory().allocate("m", 12 * 64 * 2);
  for (uint16_t i = 0; i < 12 * 64; ++i) std::memcpy(rig.memory().buffer(0).data() + 2 * i, &i, 2);
  tensor_map_in_ur12(rig, {12, 64, 2, 8, 64, 128}, matrix);
  rig.add("S2R", {R(0), SR("SR_LANEID")}).add("S2R", {R(1), SR("SR_CgaCtaId")});
  init_barrier_of_rank(rig);
  rig.add("UCGABAR_ARV", {})
      .add("UCGABAR_WAIT", {})
      .add("ISETP.EQ.U32.AND", {P(0), P(7), R(0), I(0), P(7)})
      .add("MOV", {R(3), I(1024)})
      .add("SYNCS.ARRIVE.TRANS64", {R(255), UM(6), R(3)}, "@P0")
      .add("ISETP.EQ.U32.AND", {P(4), P(7), R(1), I(0), P(0)})  // rank 0, lane 0
      .add("UMOV", {UR(8), I(0x400)})                           // destination
      .add("UMOV", {UR(9), I(kBar)})                            // mbarrier
      .add("UMOV", {UR(10), I(0)})                              // column
      .add("UMOV", {UR(11), I(2)})                              // row
      .add("UMOV", {UR(14), I(0x30000)})                        // ranks 0 and 1
      .add("UTMALDG.2D.MULTICAST", {UM(8), UM(12), UR(14)}, "@P4")
      .add("SYNCS.PHASECHK.TRANS64.TRYWAIT", {P(1), UM(6), R(255)})
      .add("EXIT", {});
  rig.run(32, kPair);
  for (uint32_t rank = 0; rank < 2; ++rank) {
    const Cta& cta = rig.cta_of_rank(rank);
    for (uint32_t r = 0; r < 8; ++r) {
      const uint32_t at = 0x400 + r * 128 + ((7 ^ (r % 8)) * 16) + 6;  // column 59
      ASSERT_EQ(shared_u16(cta, at), (2 + r) * 64 + 59) << "rank " << rank << " row " << r;
    }
    EXPECT_EQ(cta.mbarriers.at(kBar).phase, 1U) << rank;
  }
  // The record: barrier, bytes, bytes out of bounds, the mask, the row transfers.
  const Warp& w = rig.cta_of_rank(0).warps[0];
  const TraceRecord& copy = w.trace[w.trace.size() - 3];
  ASSERT_EQ(copy.addr_count, 4U + 8U);
  EXPECT_EQ(w.addrs[copy.addr_begin + 1], 1024U);
  EXPECT_EQ(w.addrs[copy.addr_begin + 3], 3U);
  // Rank 1's copy was predicated off: a line without a record.
  const Warp& other = rig.cta_of_rank(1).warps[0];
  ASSERT_EQ(other.trace.size(), w.trace.size());
  EXPECT_EQ(other.trace[other.trace.size() - 3].inst, copy.inst);
  EXPECT_EQ(other.trace[other.trace.size() - 3].addr_count, 0U);
}

TEST(EmuCluster, MisusedClustersAreErrors) {
  {  // a rank beyond the cluster
    Rig rig;
    init_barrier(rig);
    rig.add("UMOV", {UR(8), I((int64_t{1} << 24) | kBar)})
        .add("SYNCS.ARRIVE.TRANS64.RED.A1T0", {R(255), UM(8), R(255)})
        .add("EXIT", {});
    EXPECT_THAT(error_of(rig), HasSubstr("shared address 0x1000100 names CTA rank 1 of a "
                                         "cluster of 1"));
  }
  {  // only a plain arrive reaches another CTA's barrier
    Rig rig;
    init_barrier(rig);
    rig.add("UMOV", {UR(8), I((int64_t{1} << 24) | kBar)})
        .add("MOV", {R(3), I(64)})
        .add("SYNCS.ARRIVE.TRANS64", {R(255), UM(8), R(3)})
        .add("EXIT", {});
    EXPECT_THAT(error_of(rig, kPair), HasSubstr("only a plain arrive reaches another CTA's"));
  }
  {  // two arrivals at the cluster barrier in one phase
    Rig rig;
    rig.add("UCGABAR_ARV", {}).add("UCGABAR_ARV", {}).add("EXIT", {});
    EXPECT_THAT(error_of(rig, kPair), HasSubstr("arrives at the cluster barrier twice"));
  }
  {  // a cluster that does not tile the grid
    Rig rig;
    rig.add("EXIT", {}).run(32);
    LaunchShape shape;
    shape.grid = {3, 1, 1};
    shape.cluster = {2, 1, 1};
    shape.block = {32, 1, 1};
    shape.shared_bytes = 4096;
    EXPECT_THROW(
        {
          try {
            Executor(rig.program(), rig.bank(), rig.memory(), shape);
          } catch (const Error& e) {
            EXPECT_THAT(e.what(), HasSubstr("a cluster of 2 x 1 x 1 CTAs for a grid of 3 x 1 x "
                                            "1: expected 1 to 16 CTAs that tile the grid"));
            throw;
          }
        },
        Error);
  }
}

}  // namespace
}  // namespace sassim::emu::testing
