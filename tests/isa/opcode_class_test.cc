// Unit, memory space, memory kind and control kind of the opcodes the timing model
// treats specially.
#include <gtest/gtest.h>

#include "isa/opcode.h"

namespace sassim::isa {
namespace {

DecodedOpcode decode(std::string_view opcode, Arch arch = Arch::kSm80) {
  auto op = OpcodeTable::get(arch).decode(opcode);
  EXPECT_TRUE(op.has_value()) << opcode << " on " << arch_name(arch);
  return op.value_or(DecodedOpcode{});
}

void expect_mem(std::string_view opcode, MemSpace space, MemKind kind, Arch arch = Arch::kSm80) {
  DecodedOpcode op = decode(opcode, arch);
  EXPECT_EQ(op.unit, UnitClass::kMemory) << opcode;
  EXPECT_EQ(op.space, space) << opcode;
  EXPECT_EQ(op.mem, kind) << opcode;
}

TEST(OpcodeClass, MemorySpacesAndKinds) {
  expect_mem("LDG.E.SYS", MemSpace::kGlobal, MemKind::kLoad);
  expect_mem("STG.E.128", MemSpace::kGlobal, MemKind::kStore);
  expect_mem("ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU", MemSpace::kGlobal, MemKind::kAtomic);
  expect_mem("RED.E.ADD.STRONG.GPU", MemSpace::kGlobal, MemKind::kReduction);
  expect_mem("LD.E.64", MemSpace::kGeneric, MemKind::kLoad);
  expect_mem("ST.E", MemSpace::kGeneric, MemKind::kStore);
  expect_mem("ATOM.E.CAS.64.STRONG.GPU", MemSpace::kGeneric, MemKind::kAtomic);
  expect_mem("LDL.64", MemSpace::kLocal, MemKind::kLoad);
  expect_mem("STL.128", MemSpace::kLocal, MemKind::kStore);
  expect_mem("LDS.U.128", MemSpace::kShared, MemKind::kLoad);
  expect_mem("STS.64", MemSpace::kShared, MemKind::kStore);
  expect_mem("ATOMS.POPC.INC.32", MemSpace::kShared, MemKind::kAtomic);
  expect_mem("LDSM.16.MT88.4", MemSpace::kShared, MemKind::kLoad);
  expect_mem("STSM.16.M88.4", MemSpace::kShared, MemKind::kStore, Arch::kSm90);
  expect_mem("LDC.64", MemSpace::kConstant, MemKind::kLoad);
  expect_mem("LDGSTS.E.BYPASS.LTC128B.128", MemSpace::kGlobal, MemKind::kAsyncCopy);
  expect_mem("TEX.SCR.LL", MemSpace::kTexture, MemKind::kLoad);
  expect_mem("TLD.SCR.LZ", MemSpace::kTexture, MemKind::kLoad);
  expect_mem("SULD.D.BA.1D", MemSpace::kTexture, MemKind::kLoad);
  expect_mem("LDG.E.CG", MemSpace::kGlobal, MemKind::kLoad, Arch::kSm61);
}

TEST(OpcodeClass, UldcIsUniformNotMemory) {
  DecodedOpcode op = decode("ULDC.64");
  EXPECT_EQ(op.unit, UnitClass::kUniform);
  EXPECT_EQ(op.space, MemSpace::kNone);
  EXPECT_EQ(op.mem, MemKind::kNone);
  EXPECT_EQ(op.access_bytes, 0);
}

TEST(OpcodeClass, Barriers) {
  EXPECT_EQ(decode("BAR.SYNC").control, ControlKind::kBarrierSync);
  EXPECT_EQ(decode("BAR.SYNC.DEFER_BLOCKING").control, ControlKind::kBarrierSync);
  EXPECT_EQ(decode("BAR").control, ControlKind::kBarrierSync);
  EXPECT_EQ(decode("BAR.RED.POPC").control, ControlKind::kBarrierSync);
  EXPECT_EQ(decode("BAR.ARV").control, ControlKind::kBarrierArrive);
  EXPECT_EQ(decode("BAR.SYNC", Arch::kSm61).control, ControlKind::kBarrierSync);
  EXPECT_EQ(decode("BAR.SYNC").unit, UnitClass::kBranch);
}

TEST(OpcodeClass, BarrierIdAndThreadCountFromNumericModifiers) {
  EXPECT_EQ(decode("BAR.SYNC.DEFER_BLOCKING").barrier_id, 0);
  EXPECT_EQ(decode("BAR.SYNC.DEFER_BLOCKING").barrier_threads, 0);
  const DecodedOpcode sync = decode("BAR.SYNC.3.128");
  EXPECT_EQ(sync.barrier_id, 3);
  EXPECT_EQ(sync.barrier_threads, 128);
  const DecodedOpcode arrive = decode("BAR.ARV.0xf.0x40");
  EXPECT_EQ(arrive.control, ControlKind::kBarrierArrive);
  EXPECT_EQ(arrive.barrier_id, 15);
  EXPECT_EQ(arrive.barrier_threads, 64);
  const OpcodeTable& table = OpcodeTable::get(Arch::kSm80);
  EXPECT_FALSE(table.decode("BAR.SYNC.16"));      // ids are 0-15
  EXPECT_FALSE(table.decode("BAR.SYNC.1.48"));    // counts are whole warps
  EXPECT_FALSE(table.decode("BAR.SYNC.1.2048"));  // at most 1024 threads
  EXPECT_FALSE(table.decode("BAR.SYNC.1.64.3"));
}

TEST(OpcodeClass, ControlKinds) {
  EXPECT_EQ(decode("EXIT").control, ControlKind::kExit);
  for (std::string_view op : {"BRA", "BRX", "JMP", "JMX", "CALL.REL.NOINC", "RET.REL.NODEC"}) {
    EXPECT_EQ(decode(op).control, ControlKind::kBranch) << op;
    EXPECT_EQ(decode(op).unit, UnitClass::kBranch) << op;
  }
  for (std::string_view op : {"BSSY", "BSYNC", "BMOV.32.CLEAR", "BREAK"}) {
    EXPECT_EQ(decode(op).control, ControlKind::kConvergence) << op;
  }
  EXPECT_EQ(decode("WARPSYNC").control, ControlKind::kWarpSync);
  EXPECT_EQ(decode("WARPSYNC.ALL").control, ControlKind::kWarpSync);
  for (std::string_view op : {"SSY", "SYNC", "PBK", "BRK"}) {
    EXPECT_EQ(decode(op, Arch::kSm61).control, ControlKind::kConvergence) << op;
  }
  for (std::string_view op : {"MEMBAR.SC.GPU", "ERRBAR", "CCTL.IVALL"}) {
    EXPECT_EQ(decode(op).control, ControlKind::kMemoryBarrier) << op;
  }
  EXPECT_EQ(decode("FENCE.VIEW.ASYNC.S", Arch::kSm90).control, ControlKind::kMemoryBarrier);
  EXPECT_EQ(decode("MEMBAR.CTA", Arch::kSm61).control, ControlKind::kMemoryBarrier);
  // Fences beyond the CTA wait for the L2's acknowledgement of earlier writes.
  for (std::string_view op : {"MEMBAR.SC.GPU", "MEMBAR.ALL.GPU", "MEMBAR.SC.SYS", "MEMBAR"}) {
    EXPECT_TRUE(decode(op).fence_beyond_cta) << op;
  }
  for (std::string_view op : {"MEMBAR.SC.CTA", "MEMBAR.ALL.CTA", "ERRBAR", "CCTL.IVALL"}) {
    EXPECT_FALSE(decode(op).fence_beyond_cta) << op;
  }
  EXPECT_TRUE(decode("MEMBAR.GL", Arch::kSm61).fence_beyond_cta);  // Pascal's GPU scope
  EXPECT_FALSE(decode("MEMBAR.CTA", Arch::kSm61).fence_beyond_cta);
  EXPECT_EQ(decode("DEPBAR.LE").control, ControlKind::kDependency);
  EXPECT_EQ(decode("LDGDEPBAR").control, ControlKind::kDependency);
  EXPECT_EQ(decode("UCGABAR_ARV", Arch::kSm90).control, ControlKind::kClusterArrive);
  EXPECT_EQ(decode("UCGABAR_WAIT", Arch::kSm90).control, ControlKind::kClusterWait);
  EXPECT_EQ(decode("IADD3").control, ControlKind::kNone);
  EXPECT_EQ(decode("LDG.E").control, ControlKind::kNone);
}

TEST(OpcodeClass, Units) {
  EXPECT_EQ(decode("IADD3.X").unit, UnitClass::kIntAlu);
  EXPECT_EQ(decode("LOP3.LUT").unit, UnitClass::kIntAlu);
  EXPECT_EQ(decode("IMAD.WIDE").unit, UnitClass::kIntMad);
  // Hopper's VIADD shares the IMAD pipe (docs/MODEL.md: ptxas's stall counts).
  EXPECT_EQ(decode("VIADD", Arch::kSm90).unit, UnitClass::kIntMad);
  EXPECT_EQ(decode("VIMNMX", Arch::kSm90).unit, UnitClass::kIntAlu);
  EXPECT_EQ(decode("XMAD.MRG", Arch::kSm61).unit, UnitClass::kIntMad);
  EXPECT_EQ(decode("FFMA.FTZ").unit, UnitClass::kFp32);
  EXPECT_EQ(decode("DFMA").unit, UnitClass::kFp64);
  EXPECT_EQ(decode("HADD2.F32").unit, UnitClass::kFp16);
  EXPECT_EQ(decode("MUFU.EX2").unit, UnitClass::kSfu);
  EXPECT_EQ(decode("F2FP.PACK_AB").unit, UnitClass::kConversion);
  EXPECT_EQ(decode("I2F.U32.RP").unit, UnitClass::kConversion);
  EXPECT_EQ(decode("HMMA.16816.F32").unit, UnitClass::kTensor);
  EXPECT_EQ(decode("HGMMA.64x128x16.F32", Arch::kSm90).unit, UnitClass::kTensor);
  EXPECT_EQ(decode("S2UR").unit, UnitClass::kUniform);
  EXPECT_EQ(decode("S2R").unit, UnitClass::kMisc);
  EXPECT_EQ(decode("CS2R").unit, UnitClass::kMisc);
  EXPECT_EQ(decode("SHFL.BFLY").unit, UnitClass::kMisc);
  EXPECT_EQ(decode("NOP").unit, UnitClass::kMisc);
}

TEST(OpcodeClass, CacheOperatorsThatBypassTheL1) {
  EXPECT_TRUE(decode("LDG.E.64.STRONG.GPU").l1_bypass);  // ld.cg
  EXPECT_TRUE(decode("LDG.E.64.STRONG.SYS").l1_bypass);  // ld.cv, volatile
  EXPECT_TRUE(decode("LD.E.STRONG.GPU").l1_bypass);      // generic
  EXPECT_TRUE(decode("LDG.E.CG", Arch::kSm61).l1_bypass);
  EXPECT_FALSE(decode("LDG.E.64.STRONG.SM").l1_bypass);  // ld.ca
  EXPECT_FALSE(decode("LDG.E.STRONG.CTA").l1_bypass);    // ld.ca on Volta
  EXPECT_FALSE(decode("LDG.E.128").l1_bypass);
  EXPECT_FALSE(decode("LDG.E.SYS").l1_bypass);           // Volta's weak load
  EXPECT_FALSE(decode("STG.E.STRONG.GPU").l1_bypass);    // stores: write-through anyway
  EXPECT_TRUE(decode("LDGSTS.E.BYPASS.128").l1_bypass);  // cp.async.cg
  EXPECT_FALSE(decode("LDGSTS.E.128").l1_bypass);        // cp.async.ca
  EXPECT_FALSE(decode("ATOMG.E.ADD.STRONG.GPU").l1_bypass);
}

TEST(OpcodeClass, CacheOperatorsThatSetTheL1ReplacementPriority) {
  EXPECT_EQ(decode("LDG.E.EF.128").l1_policy, L1Policy::kEvictFirst);  // ld.cs
  EXPECT_EQ(decode("LDG.E.EL").l1_policy, L1Policy::kEvictLast);
  EXPECT_EQ(decode("LDG.E.LU.64").l1_policy, L1Policy::kLastUse);  // ld.lu
  EXPECT_EQ(decode("LDG.E.NA").l1_policy, L1Policy::kNoAllocate);
  EXPECT_EQ(decode("LD.E.EF").l1_policy, L1Policy::kEvictFirst);  // generic
  EXPECT_EQ(decode("LDG.E.128").l1_policy, L1Policy::kNormal);
  EXPECT_EQ(decode("LDG.E.CONSTANT").l1_policy, L1Policy::kNormal);
  // L2 hints (EFL2, ELL2) are other modifiers; stores and L1-bypassing loads keep none.
  EXPECT_EQ(decode("LDG.E.EFL2.128").l1_policy, L1Policy::kNormal);
  EXPECT_EQ(decode("STG.E.EF.128").l1_policy, L1Policy::kNormal);
  EXPECT_EQ(decode("LDG.E.STRONG.GPU").l1_policy, L1Policy::kNormal);
}

TEST(OpcodeClass, AccessBytesFromModifiers) {
  EXPECT_EQ(decode("LDG.E.U8.SYS").access_bytes, 1);
  EXPECT_EQ(decode("LDG.E.S8").access_bytes, 1);
  EXPECT_EQ(decode("STG.E.U16").access_bytes, 2);
  EXPECT_EQ(decode("LDC.S16").access_bytes, 2);
  EXPECT_EQ(decode("LDG.E.SYS").access_bytes, 4);
  EXPECT_EQ(decode("LDS.U.32", Arch::kSm61).access_bytes, 4);
  EXPECT_EQ(decode("LDG.E.64.SYS").access_bytes, 8);
  EXPECT_EQ(decode("ATOM.E.ADD.F64.RN.STRONG.GPU").access_bytes, 8);
  EXPECT_EQ(decode("LDG.E.128.SYS").access_bytes, 16);
  EXPECT_EQ(decode("LDS.U.128", Arch::kSm61).access_bytes, 16);
  EXPECT_EQ(decode("LDGSTS.E.BYPASS.LTC128B.128").access_bytes, 16);  // LTC128B is a hint
  EXPECT_EQ(decode("LDGSTS.E.LTC128B.64").access_bytes, 8);
  EXPECT_EQ(decode("LDSM.16.M88.4").access_bytes, 16);  // one 16-byte row per thread
  EXPECT_EQ(decode("IADD3").access_bytes, 0);
  EXPECT_EQ(decode("MEMBAR.SC.GPU").access_bytes, 0);
}

TEST(OpcodeClass, HopperAsyncOperations) {
  auto async = [](std::string_view opcode) { return decode(opcode, Arch::kSm90).async; };
  EXPECT_EQ(async("UTMALDG.2D"), AsyncOp::kTmaLoad);
  EXPECT_EQ(async("UBLKCP.S.G"), AsyncOp::kTmaLoad);
  EXPECT_EQ(async("UTMASTG.2D"), AsyncOp::kTmaStore);
  EXPECT_EQ(async("UBLKCP.G.S"), AsyncOp::kTmaStore);
  EXPECT_EQ(async("UTMAREDG.2D.ADD"), AsyncOp::kTmaReduce);
  EXPECT_EQ(async("UBLKRED.G.S.MIN.S32"), AsyncOp::kTmaReduce);
  EXPECT_EQ(async("UBLKCP.S.S"), AsyncOp::kClusterCopy);
  EXPECT_EQ(async("UBLKRED.S.S.ADD.F32.RN"), AsyncOp::kClusterReduce);
  EXPECT_EQ(async("UTMACMDFLUSH"), AsyncOp::kBulkCommit);
  EXPECT_EQ(async("UTMAPF.L2.3D"), AsyncOp::kTmaPrefetch);
  EXPECT_EQ(async("DEPBAR.LE"), AsyncOp::kNone);
}

}  // namespace
}  // namespace sassim::isa
