// SASS operand forms one by one, and the parser's messages for malformed listings.
#include "traces/sass/operand.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "ground/error.h"
#include "traces/sass/listing.h"

namespace sassim::traces::sass {
namespace {

using ::testing::HasSubstr;

Operand parsed(std::string_view text) {
  auto op = parse_operand(text);
  EXPECT_TRUE(op.has_value()) << text;
  return op.value_or(Operand{});
}

TEST(SassOperand, Registers) {
  Operand r = parsed("-R2.64.reuse");
  EXPECT_EQ(r.kind, OperandKind::kReg);
  EXPECT_EQ(r.reg, 2U);
  EXPECT_TRUE(r.negate);
  EXPECT_TRUE(r.reuse);
  EXPECT_EQ(r.suffixes, std::vector<std::string>{"64"});
  EXPECT_TRUE(parsed("R6.H1_H1").has_suffix("H1_H1"));
  EXPECT_TRUE(parsed("|R3|").absolute);
  // nvdisasm puts a register's reuse flag outside the bars of |x|.
  Operand abs_reuse = parsed("-|R22|.reuse");
  EXPECT_EQ(abs_reuse.kind, OperandKind::kReg);
  EXPECT_EQ(abs_reuse.reg, 22U);
  EXPECT_TRUE(abs_reuse.absolute && abs_reuse.reuse && abs_reuse.negate);
  EXPECT_TRUE(parsed("~R3").invert);
  EXPECT_EQ(parsed("RZ").reg, kRZ);
  EXPECT_EQ(parsed("URZ").kind, OperandKind::kUniformReg);
  EXPECT_EQ(parsed("URZ").reg, kURZ);
  EXPECT_EQ(parsed("UR36").reg, 36U);
  Operand p = parsed("!P3");
  EXPECT_EQ(p.kind, OperandKind::kPred);
  EXPECT_EQ(p.reg, 3U);
  EXPECT_TRUE(p.negate);
  Operand up = parsed("!UPT");
  EXPECT_EQ(up.kind, OperandKind::kUniformPred);
  EXPECT_EQ(up.reg, kPT);
  EXPECT_EQ(parsed("B15").kind, OperandKind::kBarrier);
  EXPECT_EQ(parsed("SB5").kind, OperandKind::kScoreboard);
  EXPECT_EQ(parsed("SB5").reg, 5U);
  EXPECT_EQ(parsed("SR_CgaCtaId").kind, OperandKind::kSpecialReg);
  EXPECT_EQ(parsed("SRZ").name, "SRZ");
}

TEST(SassOperand, Immediates) {
  EXPECT_EQ(parsed("0x1f").imm, 0x1f);
  EXPECT_EQ(parsed("-0x80").imm, -0x80);
  EXPECT_EQ(parsed("0xffffffff").imm, 0xffffffff);
  EXPECT_EQ(parsed("-1").imm, -1);
  EXPECT_EQ(parsed("-1").kind, OperandKind::kImmInt);
  EXPECT_DOUBLE_EQ(parsed("-1").fimm, -1.0);
  EXPECT_EQ(parsed("1.5").kind, OperandKind::kImmFloat);
  EXPECT_DOUBLE_EQ(parsed("-1.4426950216293334961").fimm, -1.4426950216293334961);
  EXPECT_DOUBLE_EQ(parsed("1.00000001504746621988e+30").fimm, 1.00000001504746621988e+30);
  EXPECT_TRUE(std::isinf(parsed("-INF").fimm));
  EXPECT_LT(parsed("-INF").fimm, 0.0);
  EXPECT_TRUE(std::isnan(parsed("+QNAN").fimm));
}

TEST(SassOperand, ConstantsAndAddresses) {
  Operand c = parsed("c[0x3][UR6+0x8]");
  EXPECT_EQ(c.kind, OperandKind::kConst);
  EXPECT_EQ(c.const_bank, 3U);
  EXPECT_EQ(c.const_offset_reg.index, 6U);
  EXPECT_TRUE(c.const_offset_reg.uniform);
  EXPECT_EQ(c.const_offset, 8);
  Operand cx = parsed("cx[UR4][0x10]");
  EXPECT_EQ(cx.const_bank_reg.index, 4U);
  EXPECT_EQ(cx.const_offset, 0x10);
  EXPECT_FALSE(parsed("c[0x0][RZ]").const_offset_reg.present());

  Operand m = parsed("[R1+UR4+-0x10]");
  EXPECT_EQ(m.kind, OperandKind::kMemory);
  EXPECT_EQ(m.mem.reg.index, 1U);
  EXPECT_FALSE(m.mem.reg.wide);
  EXPECT_EQ(m.mem.ureg.index, 4U);
  EXPECT_EQ(m.mem.offset, -0x10);
  Operand x4 = parsed("[R14.X4+0x60]");
  EXPECT_EQ(x4.mem.scale, 4U);
  EXPECT_EQ(x4.mem.offset, 0x60);
  Operand x8 = parsed("[R2.X8+-0x8]");
  EXPECT_EQ(x8.mem.scale, 8U);
  EXPECT_EQ(x8.mem.offset, -0x8);
  EXPECT_TRUE(x8.suffixes.empty());
  EXPECT_EQ(parsed("[R3.X16]").mem.scale, 16U);
  Operand d = parsed("desc[UR4][R2.64+0x4]");
  EXPECT_EQ(d.mem.descriptor, 4U);
  EXPECT_TRUE(d.mem.reg.wide);
  EXPECT_EQ(d.mem.offset, 4);
  Operand u = parsed("[UR4+0x20]");
  EXPECT_FALSE(u.mem.reg.present());
  EXPECT_EQ(u.mem.ureg.index, 4U);
  EXPECT_FALSE(parsed("[RZ]").mem.reg.present());
}

TEST(SassOperand, LabelsAndExoticWords) {
  EXPECT_EQ(parsed("`(.L_x_1)").kind, OperandKind::kLabel);
  EXPECT_EQ(parsed("`(.L_x_1)").name, ".L_x_1");
  EXPECT_EQ(parsed("gdesc[UR4]").kind, OperandKind::kOther);
  EXPECT_EQ(parsed("tnspA").name, "tnspA");
}

TEST(SassOperand, MalformedIsRejected) {
  for (std::string_view bad : {"[R2.64+", "c[0x0]", "R256", "UR64", "P8", "R2x", "FOO", "[R1+R2]",
                               "!R3", "c[0x0][0x10", "`()", "", "[R2.reuse]", "|R2|x", "||"}) {
    EXPECT_FALSE(parse_operand(bad).has_value()) << bad;
  }
}

constexpr std::string_view kHeader =
    "        .global         k\n"
    "k:\n";

std::string error_of(const std::string& text) {
  try {
    parse_listing(text, "t.sass");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(SassListingErrors, MissingPc) {
  EXPECT_THAT(
      error_of(std::string(kHeader) + "        MOV R1, c[0x0][0x28] ;  /* 0x00000a0000017a02 */\n"),
      HasSubstr("t.sass:3: expected an instruction PC '/*0000*/' before 'MOV R1"));
}

TEST(SassListingErrors, UnparsableOperand) {
  EXPECT_THAT(error_of(std::string(kHeader) + "        /*0000*/  MOV R1, c[0x0] ;\n"),
              HasSubstr("t.sass:3: expected an operand (register, predicate, immediate, "
                        "c[bank][offset], [address] or `(label)) but found 'c[0x0]'"));
}

TEST(SassListingErrors, UndefinedLabel) {
  EXPECT_THAT(error_of(std::string(kHeader) + ".L_x_0:\n        /*0000*/  NOP ;\n" +
                       "        /*0010*/  BRA `(.L_x_9) ;\n"),
              HasSubstr("t.sass:5: label '.L_x_9' is not defined in function k; expected a "
                        "line '.L_x_9:'"));
}

TEST(SassListingErrors, PcOutOfOrderAndMissingSecondWord) {
  EXPECT_THAT(error_of(std::string(kHeader) + "  /*0010*/ NOP ;\n  /*0010*/ NOP ;\n"),
              HasSubstr("t.sass:4: PC 0x0010 out of order; expected a PC above 0x0010"));
  EXPECT_THAT(error_of(std::string(kHeader) + "  /*0000*/ NOP ; /* 0x0000000000007918 */\n" +
                       "  /*0010*/ NOP ;\n"),
              HasSubstr("t.sass:4: expected the encoding's second word '/* 0x... */'"));
  EXPECT_THAT(error_of("  /*0000*/ NOP ;\n"), HasSubstr("t.sass:1: expected a function label"));
}

TEST(SassListing, CuobjdumpLayout) {
  const Listing l = parse_listing(
      "\tcode for sm_86\n"
      "\t\tFunction : _Z3addPf\n"
      "\t.headerflags\t@\"EF_CUDA_SM86 EF_CUDA_PTX_SM(EF_CUDA_SM86)\"\n"
      "        /*0000*/                   MOV R1, c[0x0][0x28] ;  /* 0x00000a0000017a02 */\n"
      "                                                         /* 0x000fe40000000f00 */\n"
      "        /*0010*/                   BRA 0x10;               /* 0xfffffff000007947 */\n"
      "                                                         /* 0x000fc0000383ffff */\n",
      "c.sass");
  EXPECT_EQ(l.arch, "sm_86");
  ASSERT_EQ(l.functions.size(), 1U);
  EXPECT_EQ(l.functions[0].name, "_Z3addPf");
  ASSERT_EQ(l.functions[0].instructions.size(), 2U);
  const Operand& target = l.functions[0].instructions[1].operands[0];
  EXPECT_EQ(target.kind, OperandKind::kLabel);
  EXPECT_EQ(target.target_pc, 0x10U);
}

// nvdisasm's notes on spill code are not operands.
TEST(SassListing, AnnotationsAreSkipped) {
  const Listing l =
      parse_listing(std::string(kHeader) +
                        "        /*0000*/  STL [R1+0x10], R29   (*\"SpillRefill\"*) ;\n"
                        "        /*0010*/  LDL.LU.64 R26, [R1+0x20]  (*\"SpillRefill\"*);\n",
                    "t.sass");
  ASSERT_EQ(l.functions[0].instructions.size(), 2U);
  const Instruction& store = l.functions[0].instructions[0];
  EXPECT_EQ(store.mnemonic, "STL");
  ASSERT_EQ(store.operands.size(), 2U);
  EXPECT_EQ(store.operands[1].kind, OperandKind::kReg);
  EXPECT_EQ(store.operands[1].reg, 29U);
  EXPECT_EQ(l.functions[0].instructions[1].operands.size(), 2U);
  EXPECT_THAT(error_of(std::string(kHeader) + "        /*0000*/  STL [R1], R2 (*\"Spill ;\n"),
              HasSubstr("t.sass:3: expected an annotation '(*\"...\"*)' to end the instruction "
                        "but found '(*\"Spill'"));
}

TEST(SassListingErrors, NoFunction) {
  EXPECT_THAT(error_of("// nothing here\n"),
              HasSubstr("t.sass: no function found; expected a SASS listing with a function"));
}

TEST(SassListing, UnreadableFile) {
  EXPECT_THROW(read_listing("/nonexistent/x.sass"), Error);
  try {
    read_listing("/nonexistent/x.sass");
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("/nonexistent/x.sass: cannot read the SASS listing"));
  }
}

}  // namespace
}  // namespace sassim::traces::sass
