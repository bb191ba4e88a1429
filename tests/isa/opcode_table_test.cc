#include "isa/opcode.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace sassim::isa {
namespace {

bool has(Arch arch, std::string_view opcode) {
  return OpcodeTable::get(arch).decode(opcode).has_value();
}

TEST(OpcodeTable, XmadIsPascalOnly) {
  EXPECT_TRUE(has(Arch::kSm60, "XMAD"));
  EXPECT_TRUE(has(Arch::kSm61, "XMAD.PSL.CBCC"));
  for (Arch arch : {Arch::kSm70, Arch::kSm75, Arch::kSm80, Arch::kSm86, Arch::kSm89, Arch::kSm90}) {
    EXPECT_FALSE(has(arch, "XMAD")) << arch_name(arch);
  }
}

TEST(OpcodeTable, VoltaReplacedTheConvergenceStack) {
  for (std::string_view op : {"SSY", "SYNC", "PBK", "BRK", "CAL", "PRET", "PCNT", "CONT"}) {
    EXPECT_TRUE(has(Arch::kSm61, op)) << op;
    EXPECT_FALSE(has(Arch::kSm70, op)) << op;
  }
  for (std::string_view op : {"BSSY", "BSYNC", "WARPSYNC", "BMOV", "BREAK", "CALL"}) {
    EXPECT_FALSE(has(Arch::kSm61, op)) << op;
    EXPECT_TRUE(has(Arch::kSm70, op)) << op;
    EXPECT_TRUE(has(Arch::kSm90, op)) << op;
  }
}

TEST(OpcodeTable, ImadAndHmmaFromVolta) {
  EXPECT_TRUE(has(Arch::kSm70, "IMAD.WIDE.U32"));
  EXPECT_TRUE(has(Arch::kSm90, "IMAD"));
  EXPECT_FALSE(has(Arch::kSm61, "HMMA.884.F32.F32.STEP0"));
  EXPECT_TRUE(has(Arch::kSm70, "HMMA.884.F32.F32.STEP0"));
  EXPECT_TRUE(has(Arch::kSm80, "HMMA.16816.F32"));
  EXPECT_FALSE(has(Arch::kSm61, "PLOP3.LUT"));
  EXPECT_TRUE(has(Arch::kSm70, "PLOP3.LUT"));
}

TEST(OpcodeTable, TuringAddsUniformDatapathLdsmAndIntegerMma) {
  for (std::string_view op : {"LDSM.16.M88.4", "IMMA.8816.S8.S8", "ULDC.64", "UIADD3", "S2UR",
                              "R2UR", "MOVM.16.MT88", "BMMA.88128.AND.POPC"}) {
    EXPECT_FALSE(has(Arch::kSm70, op)) << op;
    EXPECT_TRUE(has(Arch::kSm75, op)) << op;
    EXPECT_TRUE(has(Arch::kSm80, op)) << op;
  }
}

TEST(OpcodeTable, AmpereAddsAsyncCopyAndDmma) {
  for (std::string_view op : {"LDGSTS.E.BYPASS.LTC128B.128", "LDGDEPBAR", "DMMA.884", "REDUX.SUM",
                              "HMNMX2", "I2FP.F32.S32", "F2IP.U8.F32.NTZ"}) {
    EXPECT_FALSE(has(Arch::kSm75, op)) << op;
    EXPECT_TRUE(has(Arch::kSm80, op)) << op;
    EXPECT_TRUE(has(Arch::kSm86, op)) << op;
    EXPECT_TRUE(has(Arch::kSm89, op)) << op;
    EXPECT_TRUE(has(Arch::kSm90, op)) << op;
  }
}

TEST(OpcodeTable, HopperAdditionsAreHopperOnly) {
  for (std::string_view op :
       {"HGMMA.64x128x16.F32", "UTMALDG.2D", "SYNCS.ARRIVE.TRANS64.RED.A1T0", "WARPGROUP.ARRIVE",
        "WARPGROUP.DEPBAR.LE", "STSM.16.M88.4", "FENCE.VIEW.ASYNC.S", "REDG.E.ADD.STRONG.GPU",
        "VIADD", "ELECT", "UCGABAR_ARV", "USETMAXREG.DEALLOC.CTAPOOL",
        "QGMMA.64x64x32.F32.E4M3.E4M3"}) {
    EXPECT_FALSE(has(Arch::kSm89, op)) << op;
    EXPECT_TRUE(has(Arch::kSm90, op)) << op;
  }
}

TEST(OpcodeTable, RemovedOpcodesAreGone) {
  EXPECT_TRUE(has(Arch::kSm75, "RTT"));
  EXPECT_FALSE(has(Arch::kSm80, "RTT"));
  EXPECT_TRUE(has(Arch::kSm75, "R2B"));
  EXPECT_FALSE(has(Arch::kSm86, "R2B"));
  EXPECT_TRUE(has(Arch::kSm61, "TEXS"));
  EXPECT_FALSE(has(Arch::kSm70, "TEXS"));
  EXPECT_TRUE(has(Arch::kSm61, "DMNMX"));
  EXPECT_FALSE(has(Arch::kSm70, "DMNMX"));
  EXPECT_FALSE(has(Arch::kSm70, "IMMA.8816.S8.S8"));  // int8 MMA needs sm_72+
}

TEST(OpcodeTable, UnknownBaseMnemonicIsNullopt) {
  for (Arch arch : kAllArchs) {
    EXPECT_FALSE(has(arch, "FOO")) << arch_name(arch);
    EXPECT_FALSE(has(arch, "FOO.E.64")) << arch_name(arch);
    EXPECT_FALSE(has(arch, "")) << arch_name(arch);
    EXPECT_FALSE(has(arch, ".E")) << arch_name(arch);
    EXPECT_FALSE(has(arch, "ldg.e")) << arch_name(arch);  // mnemonics are upper case
  }
}

TEST(OpcodeTable, IdsRoundTripToMnemonicsAndAreUniquePerArch) {
  for (Arch arch : kAllArchs) {
    const OpcodeTable& table = OpcodeTable::get(arch);
    EXPECT_EQ(table.arch(), arch);
    std::set<std::string> seen;
    for (std::uint16_t id = 0; id < table.size(); ++id) {
      std::string_view name = table.mnemonic(id);
      EXPECT_TRUE(seen.insert(std::string(name)).second) << "duplicate " << name;
      auto op = table.decode(name);
      ASSERT_TRUE(op.has_value()) << name;
      EXPECT_EQ(op->id, id) << name;
    }
    EXPECT_EQ(table.mnemonic(static_cast<std::uint16_t>(table.size())), "");
  }
  EXPECT_GT(OpcodeTable::get(Arch::kSm90).size(), OpcodeTable::get(Arch::kSm80).size());
  EXPECT_EQ(OpcodeTable::get(Arch::kSm80).size(), OpcodeTable::get(Arch::kSm86).size());
}

TEST(OpcodeTable, ModifierIdsShareTheBaseRow) {
  const OpcodeTable& t = OpcodeTable::get(Arch::kSm80);
  EXPECT_EQ(t.decode("LDG.E.128.SYS")->id, t.decode("LDG")->id);
  EXPECT_EQ(t.mnemonic(t.decode("LDG.E.128.SYS")->id), "LDG");
  EXPECT_NE(t.decode("LDG")->id, t.decode("LDGSTS")->id);
}

TEST(OpcodeTable, UnitClassNamesAreDistinct) {
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < kNumUnitClasses; ++i) {
    names.insert(unit_class_name(static_cast<UnitClass>(i)));
  }
  EXPECT_EQ(names.size(), kNumUnitClasses);
  EXPECT_EQ(mem_space_name(MemSpace::kShared), "shared");
}

}  // namespace
}  // namespace sassim::isa
