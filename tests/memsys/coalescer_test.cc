#include "memsys/coalescer.h"

#include <gtest/gtest.h>

#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

using testing::strided;

const LineGeometry kGeometry{128, 32};

TEST(Coalescer, FullyCoalescedWarpIsOneLineFourSectors) {
  CoalescedLines out;
  coalesce(strided(0x1000, 4), 4, kGeometry, out);
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0].line, 0x1000u / 128);
  EXPECT_EQ(out.lines[0].sector_mask, 0xfu);
  EXPECT_EQ(out.lines[0].full_mask, 0xfu);
}

TEST(Coalescer, HalfWarpTouchesTwoSectors) {
  CoalescedLines out;
  coalesce(strided(0x1040, 4, 16), 4, kGeometry, out);
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0].sector_mask, 0xcu);
}

TEST(Coalescer, StrideOfALineGivesOneSectorPerLine) {
  CoalescedLines out;
  coalesce(strided(0, 128), 4, kGeometry, out);
  ASSERT_EQ(out.lines.size(), 32u);
  for (std::size_t i = 0; i < 32; ++i) {
    EXPECT_EQ(out.lines[i].line, i);
    EXPECT_EQ(out.lines[i].sector_mask, 0x1u);
    EXPECT_EQ(out.lines[i].full_mask, 0u) << "4 of 32 bytes is not a full sector";
  }
}

TEST(Coalescer, StrideOf64BytesGivesTwoSectorsPerLine) {
  CoalescedLines out;
  coalesce(strided(0, 64), 4, kGeometry, out);
  ASSERT_EQ(out.lines.size(), 16u);
  for (const LineAccess& a : out.lines) EXPECT_EQ(a.sector_mask, 0x5u);
}

TEST(Coalescer, LinesComeInOrderOfFirstAppearance) {
  CoalescedLines out;
  coalesce(std::vector<std::uint64_t>{0x300, 0x100, 0x304, 0x200, 0x104}, 4, kGeometry, out);
  ASSERT_EQ(out.lines.size(), 3u);
  EXPECT_EQ(out.lines[0].line, 6u);
  EXPECT_EQ(out.lines[1].line, 2u);
  EXPECT_EQ(out.lines[2].line, 4u);
}

TEST(Coalescer, AccessStraddlingSectorsSetsBoth) {
  CoalescedLines out;
  coalesce(std::vector<std::uint64_t>{30}, 4, kGeometry, out);  // bytes 30..33
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0].sector_mask, 0x3u);
}

TEST(Coalescer, AccessStraddlingLinesAddsLowerLineFirst) {
  CoalescedLines out;
  coalesce(std::vector<std::uint64_t>{126}, 8, kGeometry, out);  // bytes 126..133
  ASSERT_EQ(out.lines.size(), 2u);
  EXPECT_EQ(out.lines[0].line, 0u);
  EXPECT_EQ(out.lines[0].sector_mask, 0x8u);
  EXPECT_EQ(out.lines[1].line, 1u);
  EXPECT_EQ(out.lines[1].sector_mask, 0x1u);
}

TEST(Coalescer, SixteenByteAccessesSpanFourLines) {
  CoalescedLines out;
  coalesce(strided(0x2000, 16), 16, kGeometry, out);  // 512 contiguous bytes
  ASSERT_EQ(out.lines.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(out.lines[i].line, 0x2000u / 128 + i);
    EXPECT_EQ(out.lines[i].sector_mask, 0xfu);
    EXPECT_EQ(out.lines[i].full_mask, 0xfu);
  }
}

TEST(Coalescer, SixteenByteAccessesWithGapsMarkOnlyPartialSectors) {
  CoalescedLines out;
  coalesce(strided(0, 32, 4), 16, kGeometry, out);  // first half of each sector
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0].sector_mask, 0xfu);
  EXPECT_EQ(out.lines[0].full_mask, 0u);
}

TEST(Coalescer, SameAddressFromEveryThreadIsOneSector) {
  CoalescedLines out;
  coalesce(std::vector<std::uint64_t>(32, 0x84), 4, kGeometry, out);
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0].line, 1u);
  EXPECT_EQ(out.lines[0].sector_mask, 0x1u);
}

TEST(Coalescer, BufferIsReusedAcrossCalls) {
  CoalescedLines out;
  coalesce(strided(0, 128), 4, kGeometry, out);
  const std::size_t capacity = out.lines.capacity();
  const LineAccess* data = out.lines.data();
  coalesce(strided(0x1000, 4), 4, kGeometry, out);
  EXPECT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines.capacity(), capacity);
  EXPECT_EQ(out.lines.data(), data);
}

TEST(Coalescer, OtherGeometries) {
  CoalescedLines out;
  coalesce(strided(0, 4), 4, LineGeometry{64, 16}, out);
  ASSERT_EQ(out.lines.size(), 2u);
  EXPECT_EQ(out.lines[0].sector_mask, 0xfu);
  EXPECT_EQ(out.lines[1].sector_mask, 0xfu);
}

}  // namespace
}  // namespace sassim::memsys
