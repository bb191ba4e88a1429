// Operands and shared-memory footprint of Hopper warpgroup matrix instructions, with
// the spellings of the committed listing kernels/sass/sm_90a/bf16_gemm_wgmma.sass.
#include <gtest/gtest.h>

#include <array>
#include <string_view>

#include "isa/opcode.h"
#include "isa/warpgroup.h"

namespace sassim::isa {
namespace {

MatrixShape shape(std::string_view opcode) {
  auto op = OpcodeTable::get(Arch::kSm90).decode(opcode);
  EXPECT_TRUE(op.has_value()) << opcode;
  return op ? op->matrix : MatrixShape{};
}

TEST(Warpgroup, OperandsOfTheListing) {
  // HGMMA.64x128x16.F32.BF16 R24, gdesc[UR12], R24 ;
  constexpr std::array<std::string_view, 3> smem = {"R24", "gdesc[UR12]", "R24"};
  auto a = warpgroup_mma_operands(smem);
  ASSERT_TRUE(a.has_value());
  EXPECT_TRUE(a->a_from_shared);
  EXPECT_FALSE(a->commits_group);
  // HGMMA.64x128x16.F32.BF16 R88, gdesc[UR12], R88, gsb0 ;
  constexpr std::array<std::string_view, 4> commit = {"R88", "gdesc[UR12]", "R88", "gsb0"};
  auto b = warpgroup_mma_operands(commit);
  ASSERT_TRUE(b.has_value());
  EXPECT_TRUE(b->commits_group);
  // A from registers: D, A, descB, C.
  constexpr std::array<std::string_view, 4> regs = {"R24", "R152", "gdesc[UR4]", "R24"};
  auto c = warpgroup_mma_operands(regs);
  ASSERT_TRUE(c.has_value());
  EXPECT_FALSE(c->a_from_shared);
  // Not a wgmma: no descriptor, or too few operands.
  constexpr std::array<std::string_view, 3> none = {"R24", "R4", "R24"};
  EXPECT_FALSE(warpgroup_mma_operands(none).has_value());
  constexpr std::array<std::string_view, 2> few = {"R24", "gdesc[UR4]"};
  EXPECT_FALSE(warpgroup_mma_operands(few).has_value());
}

TEST(Warpgroup, DepbarPendingGroups) {
  constexpr std::array<std::string_view, 2> one = {"gsb0", "0x1"};
  constexpr std::array<std::string_view, 2> zero = {"gsb0", "0x0"};
  constexpr std::array<std::string_view, 2> dec = {"gsb0", "3"};
  constexpr std::array<std::string_view, 2> bad = {"gsb0", "0xZ"};
  constexpr std::array<std::string_view, 2> other = {"sb0", "0x1"};
  EXPECT_EQ(warpgroup_depbar_pending(one), 1U);
  EXPECT_EQ(warpgroup_depbar_pending(zero), 0U);
  EXPECT_EQ(warpgroup_depbar_pending(dec), 3U);
  EXPECT_FALSE(warpgroup_depbar_pending(bad).has_value());
  EXPECT_FALSE(warpgroup_depbar_pending(other).has_value());
}

TEST(Warpgroup, DepbarWaitsArriveDoesNot) {
  const auto& table = OpcodeTable::get(Arch::kSm90);
  EXPECT_EQ(table.decode("WARPGROUP.DEPBAR.LE")->control, ControlKind::kWarpgroupWait);
  EXPECT_EQ(table.decode("WARPGROUP.ARRIVE")->control, ControlKind::kDependency);
  EXPECT_EQ(table.decode("DEPBAR.LE")->control, ControlKind::kDependency);
}

TEST(Warpgroup, SharedMemoryBytes) {
  // 16-bit types: A 64x16x2 = 2048 B, B Nx16x2 B.
  EXPECT_EQ(warpgroup_shared_bytes(shape("HGMMA.64x256x16.F32.BF16"), true), 2048U + 8192U);
  EXPECT_EQ(warpgroup_shared_bytes(shape("HGMMA.64x256x16.F32.BF16"), false), 8192U);
  EXPECT_EQ(warpgroup_shared_bytes(shape("HGMMA.64x64x16.F16"), true), 2048U + 2048U);
  // TF32 (K = 8, 4 bytes), FP8 and INT8 (K = 32, 1 byte): the same bytes per N.
  EXPECT_EQ(warpgroup_shared_bytes(shape("HGMMA.64x128x8.F32.TF32"), true), 2048U + 4096U);
  EXPECT_EQ(warpgroup_shared_bytes(shape("QGMMA.64x128x32.F32.E4M3.E4M3"), true), 2048U + 4096U);
  EXPECT_EQ(warpgroup_shared_bytes(shape("IGMMA.64x128x32.S32.S8.S8"), true), 2048U + 4096U);
  // Sparse: A stored compressed (half), B at the logical K.
  EXPECT_EQ(warpgroup_shared_bytes(shape("HGMMA.64x128x32.F32.BF16.SP"), true), 2048U + 8192U);
  // Warp-level mma reads registers only.
  EXPECT_EQ(warpgroup_shared_bytes(shape("HMMA.16816.F32.BF16"), true), 0U);
}

}  // namespace
}  // namespace sassim::isa
