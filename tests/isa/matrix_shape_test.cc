// Shape and types of matrix instructions, decoded once for the tensor-core timing.
#include <gtest/gtest.h>

#include <string>

#include "isa/opcode.h"

namespace sassim::isa {
namespace {

MatrixShape shape(std::string_view opcode, Arch arch = Arch::kSm80) {
  auto op = OpcodeTable::get(arch).decode(opcode);
  EXPECT_TRUE(op.has_value()) << opcode << " on " << arch_name(arch);
  return op ? op->matrix : MatrixShape{};
}

MatrixShape make(std::uint16_t m, std::uint16_t n, std::uint16_t k, MmaType type, MmaAccum accum,
                 bool sparse = false) {
  return {m, n, k, type, accum, sparse, false};
}

MatrixShape group(std::uint16_t n, std::uint16_t k, MmaType type, MmaAccum accum,
                  bool sparse = false) {
  return {64, n, k, type, accum, sparse, true};
}

TEST(MatrixShape, VoltaHalfSteps) {
  // Operand type F16 (Volta has no other); the two types are D and C.
  EXPECT_EQ(shape("HMMA.884.F32.F32.STEP0", Arch::kSm70),
            make(8, 8, 4, MmaType::kF16, MmaAccum::kF32));
  EXPECT_EQ(shape("HMMA.884.F16.F16.STEP1", Arch::kSm70),
            make(8, 8, 4, MmaType::kF16, MmaAccum::kF16));
}

TEST(MatrixShape, TuringAndAmpereHalfForms) {
  EXPECT_EQ(shape("HMMA.1688.F16", Arch::kSm75), make(16, 8, 8, MmaType::kF16, MmaAccum::kF16));
  EXPECT_EQ(shape("HMMA.1688.F32"), make(16, 8, 8, MmaType::kF16, MmaAccum::kF32));
  EXPECT_EQ(shape("HMMA.16816.F32"), make(16, 8, 16, MmaType::kF16, MmaAccum::kF32));
  EXPECT_EQ(shape("HMMA.16816.F16"), make(16, 8, 16, MmaType::kF16, MmaAccum::kF16));
  EXPECT_EQ(shape("HMMA.16816.F32.BF16"), make(16, 8, 16, MmaType::kBf16, MmaAccum::kF32));
  EXPECT_EQ(shape("HMMA.1688.F32.TF32"), make(16, 8, 8, MmaType::kTf32, MmaAccum::kF32));
}

TEST(MatrixShape, SparseFormsCarryTheLogicalShape) {
  EXPECT_EQ(shape("HMMA.SP.16832.F32"), make(16, 8, 32, MmaType::kF16, MmaAccum::kF32, true));
  EXPECT_EQ(shape("HMMA.16832.F32.BF16.SP"), make(16, 8, 32, MmaType::kBf16, MmaAccum::kF32, true));
  EXPECT_EQ(shape("IMMA.SP.16864.S8.S8"), make(16, 8, 64, MmaType::kInt8, MmaAccum::kS32, true));
}

TEST(MatrixShape, IntegerForms) {
  EXPECT_EQ(shape("IMMA.8816.S8.S8", Arch::kSm75), make(8, 8, 16, MmaType::kInt8, MmaAccum::kS32));
  EXPECT_EQ(shape("IMMA.8816.U8.S8"), make(8, 8, 16, MmaType::kInt8, MmaAccum::kS32));
  EXPECT_EQ(shape("IMMA.8832.U4.U4"), make(8, 8, 32, MmaType::kInt4, MmaAccum::kS32));
  EXPECT_EQ(shape("IMMA.16816.S8.S8"), make(16, 8, 16, MmaType::kInt8, MmaAccum::kS32));
  EXPECT_EQ(shape("IMMA.16832.S8.S8.SAT"), make(16, 8, 32, MmaType::kInt8, MmaAccum::kS32));
  EXPECT_EQ(shape("IMMA.16832.S4.S4"), make(16, 8, 32, MmaType::kInt4, MmaAccum::kS32));
  EXPECT_EQ(shape("IMMA.16864.U4.S4"), make(16, 8, 64, MmaType::kInt4, MmaAccum::kS32));
}

TEST(MatrixShape, DoubleBinaryAndFp8Forms) {
  EXPECT_EQ(shape("DMMA.884"), make(8, 8, 4, MmaType::kFp64, MmaAccum::kF64));
  EXPECT_EQ(shape("DMMA.16816", Arch::kSm90), make(16, 8, 16, MmaType::kFp64, MmaAccum::kF64));
  EXPECT_EQ(shape("BMMA.88128.AND.POPC"), make(8, 8, 128, MmaType::kBinary, MmaAccum::kS32));
  EXPECT_EQ(shape("BMMA.168256.XOR.POPC"), make(16, 8, 256, MmaType::kBinary, MmaAccum::kS32));
  EXPECT_EQ(shape("QMMA.16832.F32.E4M3.E4M3", Arch::kSm89),
            make(16, 8, 32, MmaType::kFp8, MmaAccum::kF32));
}

TEST(MatrixShape, WarpgroupForms) {
  EXPECT_EQ(shape("HGMMA.64x128x16.F32.BF16", Arch::kSm90),
            group(128, 16, MmaType::kBf16, MmaAccum::kF32));
  EXPECT_EQ(shape("HGMMA.64x256x16.F16", Arch::kSm90),
            group(256, 16, MmaType::kF16, MmaAccum::kF16));
  EXPECT_EQ(shape("HGMMA.64x64x8.F32.TF32", Arch::kSm90),
            group(64, 8, MmaType::kTf32, MmaAccum::kF32));
  EXPECT_EQ(shape("QGMMA.64x128x32.F32.E4M3.E5M2", Arch::kSm90),
            group(128, 32, MmaType::kFp8, MmaAccum::kF32));
  EXPECT_EQ(shape("QGMMA.64x96x32.F16.E5M2.E5M2", Arch::kSm90),
            group(96, 32, MmaType::kFp8, MmaAccum::kF16));
  EXPECT_EQ(shape("IGMMA.64x64x32.S8.S8", Arch::kSm90),
            group(64, 32, MmaType::kInt8, MmaAccum::kS32));
  EXPECT_EQ(shape("IGMMA.64x24x32.S32.U8.S8", Arch::kSm90),
            group(24, 32, MmaType::kInt8, MmaAccum::kS32));
  EXPECT_EQ(shape("HGMMA.64x256x32.F32.BF16.SP", Arch::kSm90),
            group(256, 32, MmaType::kBf16, MmaAccum::kF32, true));
}

TEST(MatrixShape, WarpgroupNFromTheModifierEveryMultipleOfEight) {
  for (std::uint16_t n = 8; n <= 256; n += 8) {
    const std::string text = "HGMMA.64x" + std::to_string(n) + "x16.F32.BF16";
    EXPECT_EQ(shape(text, Arch::kSm90), group(n, 16, MmaType::kBf16, MmaAccum::kF32)) << text;
  }
}

TEST(MatrixShape, ShapeNotSpelledHasNoDimensions) {
  const MatrixShape s = shape("HMMA.F32");
  EXPECT_TRUE(s.is_matrix());
  EXPECT_EQ(s.m, 0);
  EXPECT_EQ(s.accum, MmaAccum::kF32);
}

TEST(MatrixShape, OtherOpcodesAreNotMatrixInstructions) {
  EXPECT_FALSE(shape("FFMA").is_matrix());
  EXPECT_FALSE(shape("LDSM.16.M88.4").is_matrix());
  EXPECT_EQ(shape("IMAD.WIDE"), MatrixShape{});
}

TEST(MatrixShape, TypeNames) {
  EXPECT_EQ(mma_type_name(MmaType::kBf16), "bf16");
  EXPECT_EQ(mma_type_name(MmaType::kBinary), "binary");
  EXPECT_EQ(mma_accum_name(MmaAccum::kS32), "s32");
}

}  // namespace
}  // namespace sassim::isa
