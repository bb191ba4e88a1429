// Registers written by the first destination: traces record only the first register
// of a vector destination, so these footprints decide which registers the scoreboard
// holds. Each rule is documented in isa/opcode_modifiers.cc.
#include <gtest/gtest.h>

#include <string>

#include "isa/opcode.h"

namespace sassim::isa {
namespace {

int regs(std::string_view opcode, Arch arch = Arch::kSm80) {
  auto op = OpcodeTable::get(arch).decode(opcode);
  EXPECT_TRUE(op.has_value()) << opcode << " on " << arch_name(arch);
  return op ? op->dst_regs : -1;
}

TEST(DstRegs, VectorLoads) {
  EXPECT_EQ(regs("LDG.E.SYS"), 1);
  EXPECT_EQ(regs("LDG.E.U8.SYS"), 1);
  EXPECT_EQ(regs("LDG.E.64.SYS"), 2);
  EXPECT_EQ(regs("LDG.E.128.SYS"), 4);
  EXPECT_EQ(regs("LDS.64"), 2);
  EXPECT_EQ(regs("LDS.128"), 4);
  EXPECT_EQ(regs("LDS.U.128", Arch::kSm61), 4);
  EXPECT_EQ(regs("LD.E.64"), 2);
  EXPECT_EQ(regs("LDL.128"), 4);
  EXPECT_EQ(regs("LDC.64"), 2);
  EXPECT_EQ(regs("LDC.U8"), 1);
  EXPECT_EQ(regs("ATOM.E.CAS.64.STRONG.GPU"), 2);
  EXPECT_EQ(regs("ATOMG.E.EXCH.64.STRONG.GPU"), 2);
  EXPECT_EQ(regs("ATOMS.CAS.64"), 2);
  EXPECT_EQ(regs("ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU"), 1);
}

TEST(DstRegs, Ldsm) {
  EXPECT_EQ(regs("LDSM.16.M88"), 1);
  EXPECT_EQ(regs("LDSM.16.M88.2"), 2);
  EXPECT_EQ(regs("LDSM.16.M88.4"), 4);
  EXPECT_EQ(regs("LDSM.16.MT88.4"), 4);
  EXPECT_EQ(regs("LDSM.16.MT88.2"), 2);
  EXPECT_EQ(regs("LDSM.16.M88.X4"), 4);
  EXPECT_EQ(regs("LDSM.16.M88.4", Arch::kSm75), 4);
}

TEST(DstRegs, WideIntegerResults) {
  EXPECT_EQ(regs("IMAD"), 1);
  EXPECT_EQ(regs("IMAD.HI.U32"), 1);
  EXPECT_EQ(regs("IMAD.X"), 1);
  EXPECT_EQ(regs("IMAD.WIDE"), 2);
  EXPECT_EQ(regs("IMAD.WIDE.U32"), 2);
  EXPECT_EQ(regs("IMAD.WIDE.U32.X"), 2);
  EXPECT_EQ(regs("IADD.64", Arch::kSm90), 2);
  EXPECT_EQ(regs("MOV.64", Arch::kSm90), 2);
  EXPECT_EQ(regs("MOV"), 1);
  EXPECT_EQ(regs("SHF.L.U64.HI"), 1);  // a funnel shift writes one register
}

TEST(DstRegs, DoublePrecision) {
  EXPECT_EQ(regs("DADD"), 2);
  EXPECT_EQ(regs("DMUL.RP"), 2);
  EXPECT_EQ(regs("DFMA"), 2);
  EXPECT_EQ(regs("DSETP.GT.AND"), 1);  // writes predicates only
  EXPECT_EQ(regs("DMNMX", Arch::kSm61), 2);
  EXPECT_EQ(regs("DSET.LT.AND", Arch::kSm61), 1);
}

TEST(DstRegs, ConversionsToAndFrom64Bit) {
  EXPECT_EQ(regs("F2F.F64.F32"), 2);
  EXPECT_EQ(regs("F2F.F32.F64"), 1);
  EXPECT_EQ(regs("F2F.F16.F32"), 1);
  EXPECT_EQ(regs("I2F.F64"), 2);
  EXPECT_EQ(regs("I2F.F64.S64"), 2);
  EXPECT_EQ(regs("I2F.S64"), 1);  // S64 source, F32 destination
  EXPECT_EQ(regs("I2F.U32.RP"), 1);
  EXPECT_EQ(regs("FRND.F64.TRUNC"), 2);
  EXPECT_EQ(regs("FRND.FLOOR"), 1);
  EXPECT_EQ(regs("F2I.S64.TRUNC"), 2);
  EXPECT_EQ(regs("F2I.U64.F64.TRUNC"), 2);
  EXPECT_EQ(regs("F2I.FTZ.U32.TRUNC.NTZ"), 1);
  EXPECT_EQ(regs("F2I.F64.TRUNC"), 1);  // F64 source, S32 destination
  EXPECT_EQ(regs("F2F.F64.F32", Arch::kSm61), 2);
}

TEST(DstRegs, HalfMma) {
  EXPECT_EQ(regs("HMMA.16816.F32"), 4);
  EXPECT_EQ(regs("HMMA.16816.F32.BF16"), 4);
  EXPECT_EQ(regs("HMMA.16816.F16"), 2);
  EXPECT_EQ(regs("HMMA.1688.F32"), 4);
  EXPECT_EQ(regs("HMMA.1688.F16"), 2);
  EXPECT_EQ(regs("HMMA.1688.F32.TF32"), 4);
  EXPECT_EQ(regs("HMMA.1688.F32", Arch::kSm75), 4);
  EXPECT_EQ(regs("HMMA.1688.F16", Arch::kSm75), 2);
  EXPECT_EQ(regs("HMMA.SP.16832.F32.BF16"), 4);
  // Volta m8n8k4 steps each write one register pair (F32: 4 steps x 2 = 8 accumulators).
  EXPECT_EQ(regs("HMMA.884.F32.F32.STEP0", Arch::kSm70), 2);
  EXPECT_EQ(regs("HMMA.884.F32.F32.STEP3", Arch::kSm70), 2);
  EXPECT_EQ(regs("HMMA.884.F16.F16.STEP1", Arch::kSm70), 2);
  EXPECT_EQ(regs("QMMA.16832.F32.E4M3.E4M3", Arch::kSm89), 4);
  EXPECT_EQ(regs("QMMA.16832.F16.E4M3.E4M3", Arch::kSm89), 2);
}

TEST(DstRegs, IntegerAndDoubleMma) {
  EXPECT_EQ(regs("IMMA.8816.S8.S8"), 2);
  EXPECT_EQ(regs("IMMA.8832.S4.S4"), 2);
  EXPECT_EQ(regs("IMMA.16816.S8.S8"), 4);
  EXPECT_EQ(regs("IMMA.16832.S8.S8.SAT"), 4);
  EXPECT_EQ(regs("IMMA.8816.S8.S8", Arch::kSm75), 2);
  EXPECT_EQ(regs("BMMA.88128.AND.POPC"), 2);
  EXPECT_EQ(regs("BMMA.168256.AND.POPC"), 4);
  // m8n8k4.f64: two doubles per thread = four registers.
  EXPECT_EQ(regs("DMMA.884"), 4);
  EXPECT_EQ(regs("DMMA.16816", Arch::kSm90), 8);
}

TEST(DstRegs, WarpgroupMma) {
  EXPECT_EQ(regs("HGMMA.64x128x16.F32", Arch::kSm90), 64);
  EXPECT_EQ(regs("HGMMA.64x256x16.F32.BF16", Arch::kSm90), 128);
  EXPECT_EQ(regs("HGMMA.64x64x16.F16", Arch::kSm90), 16);
  EXPECT_EQ(regs("IGMMA.64x32x32.S32.S8.S8", Arch::kSm90), 16);
  EXPECT_EQ(regs("QGMMA.64x128x32.F32.E4M3.E4M3", Arch::kSm90), 64);
  // The whole 64xN accumulator over 128 threads: N/2 32-bit registers, N/4 packed F16.
  EXPECT_EQ(regs("HGMMA.64x8x16.F32.BF16", Arch::kSm90), 4);
  EXPECT_EQ(regs("HGMMA.64x8x16.F16", Arch::kSm90), 2);
  EXPECT_EQ(regs("HGMMA.64x256x16.F16", Arch::kSm90), 64);
  EXPECT_EQ(regs("QGMMA.64x256x32.F16.E5M2.E4M3", Arch::kSm90), 64);
  EXPECT_EQ(regs("HGMMA.64x256x32.F32.BF16.SP", Arch::kSm90), 128);
  for (int n = 8; n <= 256; n += 8) {
    EXPECT_EQ(regs("HGMMA.64x" + std::to_string(n) + "x16.F32.BF16", Arch::kSm90), n / 2) << n;
  }
}

TEST(DstRegs, Cs2r) {
  EXPECT_EQ(regs("CS2R"), 2);
  EXPECT_EQ(regs("CS2R.32"), 1);
  EXPECT_EQ(regs("CS2R", Arch::kSm61), 2);
}

TEST(DstRegs, OrdinaryInstructionsWriteOne) {
  for (std::string_view op : {"IADD3", "FFMA.FTZ", "S2R", "LOP3.LUT", "HADD2.F32", "MUFU.RSQ",
                              "SHFL.BFLY", "P2R", "SEL", "PRMT", "F2FP.PACK_AB"}) {
    EXPECT_EQ(regs(op), 1) << op;
  }
}

}  // namespace
}  // namespace sassim::isa
