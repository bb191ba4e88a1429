// The SASS listing parser on the committed nvdisasm listings: the first instructions of
// vectoradd field by field (control bits decoded by hand below), labels resolved to
// PCs, and every listing parsing with PCs 16 bytes apart.
#include "traces/sass/listing.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "traces/sass/operand.h"

namespace sassim::traces::sass {
namespace {

const std::filesystem::path kSass = std::filesystem::path(SASSIM_SOURCE_DIR) / "kernels/sass";

std::vector<std::filesystem::path> all_listings() {
  std::vector<std::filesystem::path> out;
  for (const auto& dir : std::filesystem::directory_iterator(kSass)) {
    for (const auto& f : std::filesystem::directory_iterator(dir.path())) {
      if (f.path().extension() == ".sass") out.push_back(f.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void expect_control(const ControlBits& c, int stall, bool yield, int wb, int rb, int wait,
                    int reuse) {
  EXPECT_EQ(c.stall, stall);
  EXPECT_EQ(c.yield, yield);
  EXPECT_EQ(c.write_barrier, wb);
  EXPECT_EQ(c.read_barrier, rb);
  EXPECT_EQ(c.wait_mask, wait);
  EXPECT_EQ(c.reuse, reuse);
}

TEST(SassListing, VectoraddFirstInstructionsExactly) {
  const Listing l = read_listing(kSass / "sm_80/vectoradd.sass");
  EXPECT_EQ(l.arch, "sm_80");
  ASSERT_EQ(l.functions.size(), 1U);
  const Function& f = l.functions[0];
  EXPECT_EQ(f.name, "vectoradd");
  EXPECT_EQ(f.registers, 12U);  // .sectioninfo @"SHI_REGISTERS=12"
  EXPECT_EQ(f.first_line, 12U);
  ASSERT_EQ(f.instructions.size(), 32U);  // 0x0000 .. 0x01f0

  // /*0000*/ MOV R1, c[0x0][0x28] ;  0x00000a0000017a02 / 0x000fe40000000f00
  // high >> 41 = 0x000fe4 >> 1 = 0x7f2 = 0b111'1111'0010: stall 2, bit 4 set (no yield:
  // the bit is stored inverted), write barrier 7 (none), read barrier 7 (none), wait mask
  // 0, reuse 0.
  const Instruction& mov = f.instructions[0];
  EXPECT_EQ(mov.pc, 0U);
  EXPECT_EQ(mov.line, 14U);
  EXPECT_FALSE(mov.guard.has_value());
  EXPECT_EQ(mov.mnemonic, "MOV");
  EXPECT_EQ(mov.opcode, "MOV");
  EXPECT_TRUE(mov.modifiers.empty());
  ASSERT_EQ(mov.operands.size(), 2U);
  EXPECT_EQ(mov.operands[0].kind, OperandKind::kReg);
  EXPECT_EQ(mov.operands[0].reg, 1U);
  EXPECT_EQ(mov.operands[1].kind, OperandKind::kConst);
  EXPECT_EQ(mov.operands[1].const_bank, 0U);
  EXPECT_EQ(mov.operands[1].const_offset, 0x28);
  EXPECT_FALSE(mov.operands[1].const_offset_reg.present());
  EXPECT_TRUE(mov.has_encoding);
  EXPECT_EQ(mov.encoding[0], 0x00000a0000017a02U);
  EXPECT_EQ(mov.encoding[1], 0x000fe40000000f00U);
  expect_control(mov.control, 2, false, 7, 7, 0, 0);

  // /*0010*/ S2R R6, SR_CTAID.X ;  high 0x000e280000002500
  // >> 41 = 0xe28 >> 1 = 0x714 = 0b111'0001'0100: stall 4, bit 4 set (no yield), write barrier 0
  // (SB0), read barrier 7, wait 0.
  const Instruction& s2r = f.instructions[1];
  EXPECT_EQ(s2r.pc, 0x10U);
  EXPECT_EQ(s2r.operands[0].kind, OperandKind::kReg);
  EXPECT_EQ(s2r.operands[0].reg, 6U);
  EXPECT_EQ(s2r.operands[1].kind, OperandKind::kSpecialReg);
  EXPECT_EQ(s2r.operands[1].name, "SR_CTAID.X");
  expect_control(s2r.control, 4, false, 0, 7, 0, 0);

  // /*0020*/ S2R R3, SR_TID.X ;  high 0x000e240000002100: 0xe24 >> 1 = 0x712: stall 2,
  // bit 4 set (no yield), write barrier 0.
  expect_control(f.instructions[2].control, 2, false, 0, 7, 0, 0);
  EXPECT_EQ(f.instructions[2].operands[1].name, "SR_TID.X");

  // /*0030*/ IMAD R6, R6, c[0x0][0x0], R3 ;  high 0x001fca00078e0203
  // >> 41 = 0x1fca >> 1 = 0xfe5 = 0b1111'1110'0101: stall 5, bit 4 clear (yield), barriers 7 and 7,
  // wait mask 0b1 (SB0: the S2Rs).
  const Instruction& imad = f.instructions[3];
  EXPECT_EQ(imad.opcode, "IMAD");
  ASSERT_EQ(imad.operands.size(), 4U);
  EXPECT_EQ(imad.operands[2].kind, OperandKind::kConst);
  EXPECT_EQ(imad.operands[2].const_offset, 0);
  EXPECT_EQ(imad.operands[3].reg, 3U);
  expect_control(imad.control, 5, true, 7, 7, 1, 0);

  // /*0040*/ ISETP.GE.U32.AND P0, PT, R6, c[0x0][0x178], PT ;  high 0x000fda0003f06070
  // >> 41 = 0xfda >> 1 = 0x7ed: stall 13, bit 4 clear (yield).
  const Instruction& isetp = f.instructions[4];
  EXPECT_EQ(isetp.opcode, "ISETP");
  EXPECT_EQ(isetp.modifiers, (std::vector<std::string>{"GE", "U32", "AND"}));
  EXPECT_EQ(isetp.operands[0].kind, OperandKind::kPred);
  EXPECT_EQ(isetp.operands[0].reg, 0U);
  EXPECT_EQ(isetp.operands[1].kind, OperandKind::kPred);
  EXPECT_EQ(isetp.operands[1].reg, kPT);
  EXPECT_EQ(isetp.operands[3].const_offset, 0x178);
  expect_control(isetp.control, 13, true, 7, 7, 0, 0);

  // /*0050*/ @P0 EXIT ;
  const Instruction& exit = f.instructions[5];
  ASSERT_TRUE(exit.guard.has_value());
  EXPECT_EQ(exit.guard->reg, 0U);
  EXPECT_FALSE(exit.guard->negate);
  EXPECT_FALSE(exit.guard->uniform);
  EXPECT_TRUE(exit.operands.empty());

  // /*0060*/ HFMA2.MMA R7, -RZ, RZ, 0, 2.384185791015625e-07 ;
  const Instruction& hfma2 = f.instructions[6];
  ASSERT_EQ(hfma2.operands.size(), 5U);
  EXPECT_EQ(hfma2.operands[1].reg, kRZ);
  EXPECT_TRUE(hfma2.operands[1].negate);
  EXPECT_EQ(hfma2.operands[3].kind, OperandKind::kImmInt);
  EXPECT_EQ(hfma2.operands[3].imm, 0);
  EXPECT_EQ(hfma2.operands[4].kind, OperandKind::kImmFloat);
  EXPECT_DOUBLE_EQ(hfma2.operands[4].fimm, 2.384185791015625e-07);

  // /*0070*/ ULDC.64 UR4, c[0x0][0x118] ;
  EXPECT_EQ(f.instructions[7].operands[0].kind, OperandKind::kUniformReg);
  EXPECT_EQ(f.instructions[7].operands[0].reg, 4U);
  EXPECT_TRUE(f.instructions[7].has_modifier("64"));

  // /*0090*/ IMAD.WIDE.U32 R2, R6.reuse, R7.reuse, c[0x0][0x160] ;  high 0x0c0fe400078e0007
  // >> 41 = 0x0c0fe4 >> 1 = 0x607f2: stall 2, bit 4 set (no yield), wait 0, reuse 0x607f2 >> 17 = 3
  // (operand slots A and B, the two .reuse operands).
  const Instruction& wide = f.instructions[9];
  EXPECT_TRUE(wide.operands[1].reuse);
  EXPECT_TRUE(wide.operands[2].reuse);
  EXPECT_FALSE(wide.operands[3].reuse);
  EXPECT_TRUE(wide.operands[1].suffixes.empty());
  expect_control(wide.control, 2, false, 7, 7, 0, 3);

  // /*00a0*/ LDG.E.CONSTANT R4, [R4.64] ;  high 0x000ea8000c1e9900
  // >> 41 = 0xea8 >> 1 = 0x754 = 0b111'0101'0100: stall 4, bit 4 set (no yield), write barrier 2.
  const Instruction& ldg = f.instructions[10];
  EXPECT_EQ(ldg.operands[1].kind, OperandKind::kMemory);
  EXPECT_EQ(ldg.operands[1].mem.reg.index, 4U);
  EXPECT_TRUE(ldg.operands[1].mem.reg.wide);
  EXPECT_FALSE(ldg.operands[1].mem.ureg.present());
  EXPECT_EQ(ldg.operands[1].mem.offset, 0);
  EXPECT_FALSE(ldg.operands[1].mem.descriptor.has_value());
  expect_control(ldg.control, 4, false, 2, 7, 0, 0);

  // /*00d0*/ FADD R9, R4, R3 ;  high 0x004fca0000000000
  // >> 41 = 0x4fca >> 1 = 0x27e5: stall 5, bit 4 clear (yield), wait mask 0x27e5 >> 11 = 0b100
  // (SB2, the loads).
  expect_control(f.instructions[13].control, 5, true, 7, 7, 4, 0);

  // /*0100*/ BRA `(.L_x_0) ; a branch to itself.
  const Instruction& bra = f.instructions[16];
  EXPECT_EQ(bra.opcode, "BRA");
  EXPECT_EQ(bra.operands[0].kind, OperandKind::kLabel);
  EXPECT_EQ(bra.operands[0].name, ".L_x_0");
  EXPECT_EQ(bra.operands[0].target_pc, 0x100U);

  EXPECT_EQ(f.at_pc(0xd0), &f.instructions[13]);
  EXPECT_EQ(f.at_pc(0xd8), nullptr);
  EXPECT_EQ(f.index_of(0x1f0), 31U);
  EXPECT_EQ(l.find("vectoradd"), &f);
  EXPECT_EQ(l.find("saxpy"), nullptr);
}

TEST(SassListing, LabelsResolveToPcs) {
  const Listing l = read_listing(kSass / "sm_80/flash_attention_fwd.sass");
  const Function* f = l.find("flash_attention_fwd");
  ASSERT_NE(f, nullptr);
  // /*2c30*/ BSSY B0, `(.L_x_6) ;  the reconvergence point .L_x_6.
  const Instruction* bssy = f->at_pc(0x2c30);
  ASSERT_NE(bssy, nullptr);
  EXPECT_EQ(bssy->operands[0].kind, OperandKind::kBarrier);
  EXPECT_EQ(bssy->operands[0].reg, 0U);
  // The encoding holds the offset from the next instruction: 0x1d0.
  EXPECT_EQ(bssy->operands[1].target_pc, 0x2c40U + 0x1d0U);
  // /*2da0*/ CALL.REL.NOINC `($__internal_0_$__cuda_sm20_rcp_rn_f32_slowpath) ;
  const Instruction* call = f->at_pc(0x2da0);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->operands[0].target_pc, 0x32c0U);
  // /*3600*/ RET.REL.NODEC R4 `(flash_attention_fwd) ;  two operands without a comma.
  const Instruction* ret = f->at_pc(0x3600);
  ASSERT_NE(ret, nullptr);
  ASSERT_EQ(ret->operands.size(), 2U);
  EXPECT_EQ(ret->operands[0].reg, 4U);
  EXPECT_EQ(ret->operands[1].target_pc, 0U);
}

TEST(SassListing, EveryCommittedListingParses) {
  const auto files = all_listings();
  ASSERT_GE(files.size(), 53U);
  std::map<std::string, std::set<std::string>> other_by_opcode;
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    const Listing l = read_listing(file);
    EXPECT_EQ(l.arch, file.parent_path().filename().string());
    ASSERT_FALSE(l.functions.empty());
    for (const Function& f : l.functions) {
      ASSERT_FALSE(f.instructions.empty()) << f.name;
      for (size_t i = 0; i < f.instructions.size(); ++i) {
        const Instruction& in = f.instructions[i];
        EXPECT_EQ(in.pc, 16 * i) << f.name;
        EXPECT_TRUE(in.has_encoding);
        for (const Operand& op : in.operands) {
          // A matrix descriptor's register varies with the compile: "gdesc[URn]" as "gdesc".
          if (op.kind == OperandKind::kOther)
            other_by_opcode[in.opcode].insert(op.name.starts_with("gdesc[UR") ? "gdesc" : op.name);
          if (op.kind == OperandKind::kLabel) {
            EXPECT_LE(op.target_pc, f.instructions.back().pc) << in.line;
            EXPECT_EQ(op.target_pc % 16, 0U);
          }
        }
      }
    }
  }
  // Only Hopper's warpgroup MMA has operands outside the general kinds: its shared-memory
  // matrix descriptor and its warpgroup scoreboard, which WARPGROUP.DEPBAR waits on.
  const std::map<std::string, std::set<std::string>> expected = {
      {"HGMMA", {"gdesc", "gsb0"}}, {"QGMMA", {"gdesc", "gsb0"}}, {"WARPGROUP", {"gsb0"}}};
  EXPECT_EQ(other_by_opcode, expected);
}

}  // namespace
}  // namespace sassim::traces::sass
