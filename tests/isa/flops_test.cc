// Floating-point work per opcode: the basis of FLOP/s and roofline figures.
#include <gtest/gtest.h>

#include <string>

#include "isa/flops.h"
#include "isa/opcode.h"

namespace sassim::isa {
namespace {

FlopInfo of(std::string_view text) {
  return flops_of(*OpcodeText::split(text));
}

TEST(Flops, ScalarFloatingPoint) {
  EXPECT_EQ(of("FFMA.FTZ").per_thread, 2);
  EXPECT_EQ(of("FFMA").kind, FlopKind::kFp32);
  EXPECT_EQ(of("FADD.FTZ").per_thread, 1);
  EXPECT_EQ(of("FMUL").per_thread, 1);
  EXPECT_EQ(of("HFMA2.MMA").per_thread, 4);  // two halves, FMA each
  EXPECT_EQ(of("HADD2.F32").kind, FlopKind::kFp16);
  EXPECT_EQ(of("DFMA").per_thread, 2);
  EXPECT_EQ(of("DADD").kind, FlopKind::kFp64);
}

TEST(Flops, NonArithmeticOpcodesCountNothing) {
  EXPECT_EQ(of("FMNMX.FTZ").kind, FlopKind::kNone);
  EXPECT_EQ(of("IMAD.WIDE").per_thread, 0);
  EXPECT_EQ(of("LDG.E.128").per_thread, 0);
}

TEST(Flops, WarpMatrixShapes) {
  // m16n8k16: 2*16*8*16 = 4096 per warp = 128 per thread.
  EXPECT_EQ(of("HMMA.16816.F32").per_thread, 128);
  EXPECT_EQ(of("HMMA.16816.F32").kind, FlopKind::kTensor);
  EXPECT_EQ(of("HMMA.1688.F16").per_thread, 64);
  EXPECT_EQ(of("HMMA.884.F32.F32.STEP0").per_thread, 16);
  EXPECT_EQ(of("IMMA.8816.S8.S8").per_thread, 64);
  EXPECT_EQ(of("IMMA.16832.S8.S8").per_thread, 256);
  EXPECT_EQ(of("DMMA.884").per_thread, 16);
  EXPECT_EQ(of("BMMA.88128.AND.POPC").per_thread, 512);
}

TEST(Flops, WarpgroupMatrixShapes) {
  // m64n256k16 over a 128-thread warpgroup: 2*64*256*16/128 = 4096.
  EXPECT_EQ(of("HGMMA.64x256x16.F32.BF16").per_thread, 4096);
  EXPECT_EQ(of("HGMMA.64x64x16.F32").per_thread, 1024);
  EXPECT_EQ(of("QGMMA.64x128x32.F32.E4M3.E4M3").per_thread, 4096);
  EXPECT_EQ(of("QGMMA.64x256x32.F32.E4M3.E4M3").per_thread, 8192);
  EXPECT_EQ(of("IGMMA.64x256x32.S32.S8.S8").per_thread, 8192);
  EXPECT_EQ(of("HGMMA.64x256x8.F32.TF32").per_thread, 2048);
  // Sparse forms count their logical (dense) shape: twice the dense form's work.
  EXPECT_EQ(of("HGMMA.64x256x32.F32.BF16.SP").per_thread, 8192);
  // Exact for every N: per thread x 128 threads = 2 x 64 x N x 16.
  for (unsigned n = 8; n <= 256; n += 8) {
    const std::string text = "HGMMA.64x" + std::to_string(n) + "x16.F32.BF16";
    EXPECT_EQ(of(text).per_thread * 128U, 2U * 64U * n * 16U) << text;
    EXPECT_EQ(of(text).kind, FlopKind::kTensor) << text;
  }
}

TEST(Flops, DecodeCarriesTheFlops) {
  auto op = OpcodeTable::get(Arch::kSm80).decode("HMMA.16816.F32");
  ASSERT_TRUE(op.has_value());
  EXPECT_EQ(op->flops_per_thread, 128);
  EXPECT_EQ(op->flop_kind, static_cast<std::uint8_t>(FlopKind::kTensor));
}

}  // namespace
}  // namespace sassim::isa
