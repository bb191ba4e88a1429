#include "memsys/sector_cache.h"

#include <gtest/gtest.h>

#include "ground/error.h"

namespace sassim::memsys {
namespace {

TEST(SectorCache, EvictsLeastRecentlyUsedWay) {
  SectorCache cache(2 * 128, 2, 128, 1, "test");  // one set of two ways
  ASSERT_EQ(cache.sets(), 1u);
  cache.allocate(10, nullptr).valid = 0xf;
  cache.allocate(11, nullptr).dirty = 0x3;
  cache.touch(*cache.find(10));
  EXPECT_TRUE(cache.victim_for(12).present);
  EXPECT_EQ(cache.victim_for(12).line, 11u);
  SectorCache::Victim victim;
  cache.allocate(12, &victim);
  EXPECT_TRUE(victim.present);
  EXPECT_EQ(victim.line, 11u);
  EXPECT_EQ(victim.dirty, 0x3u);
  EXPECT_NE(cache.find(10), nullptr);
  EXPECT_EQ(cache.find(11), nullptr);
}

TEST(SectorCache, FewerActiveWaysDropTheLinesOfTheOthers) {
  SectorCache cache(4 * 128, 4, 128, 1, "test");  // one set of four ways
  for (std::uint64_t line = 1; line <= 4; ++line) cache.allocate(line, nullptr);
  cache.set_active_ways(2);
  EXPECT_EQ(cache.ways(), 2u);
  EXPECT_NE(cache.find(1), nullptr);
  EXPECT_NE(cache.find(2), nullptr);
  EXPECT_EQ(cache.find(3), nullptr);
  EXPECT_EQ(cache.find(4), nullptr);
  cache.allocate(5, nullptr);  // evicts within the two active ways
  EXPECT_EQ(cache.find(1), nullptr);
  cache.set_active_ways(4);  // the ways come back empty
  EXPECT_FALSE(cache.victim_for(6).present);
  cache.set_active_ways(4, true);  // invalidation
  EXPECT_EQ(cache.find(2), nullptr);
  EXPECT_EQ(cache.find(5), nullptr);
  EXPECT_THROW(cache.set_active_ways(5), Error);
}

TEST(SectorCache, FreeWaysFillBeforeEvicting) {
  SectorCache cache(4 * 128, 4, 128, 1, "test");
  cache.allocate(1, nullptr);
  EXPECT_FALSE(cache.victim_for(2).present);
}

TEST(SectorCache, XorSetIndexFoldsTheFieldsAboveTheSetBits) {
  // 8 sets (3-bit fields), one way: local line 0b101'011 goes to set 011 ^ 101 = 110.
  SectorCache linear(8 * 128, 1, 128, 1, "test");
  SectorCache hashed(8 * 128, 1, 128, 1, "test", SectorCache::SetIndex::kXor);
  hashed.allocate(0b101011, nullptr);
  // The line in set 6 is evicted by another line of set 6 (0b000110), not of set 3.
  SectorCache::Victim victim;
  hashed.allocate(0b000011, &victim);
  EXPECT_FALSE(victim.present);
  hashed.allocate(0b000110, &victim);
  EXPECT_TRUE(victim.present);
  EXPECT_EQ(victim.line, 0b101011u);
  // Lines 8 apart share one set with "linear" and take all 8 with "xor".
  std::uint32_t linear_kept = 0, hashed_kept = 0;
  for (std::uint64_t k = 0; k < 8; ++k) {
    linear.allocate(8 * k + 100 * 8, nullptr);
  }
  SectorCache spread(8 * 128, 1, 128, 1, "test", SectorCache::SetIndex::kXor);
  for (std::uint64_t k = 0; k < 8; ++k) spread.allocate(8 * k + 100 * 8, nullptr);
  for (std::uint64_t k = 0; k < 8; ++k) {
    linear_kept += linear.find(8 * k + 100 * 8) != nullptr;
    hashed_kept += spread.find(8 * k + 100 * 8) != nullptr;
  }
  EXPECT_EQ(linear_kept, 1u);
  EXPECT_EQ(hashed_kept, 8u);
}

TEST(SectorCache, XorSetIndexWithOddSetCountsRotatesGroups) {
  // 6 sets (3-bit fields): each aligned group of 6 local lines fills all 6 sets.
  for (std::uint64_t group = 0; group < 40; ++group) {
    SectorCache cache(6 * 128, 1, 128, 1, "test", SectorCache::SetIndex::kXor);
    for (std::uint64_t r = 0; r < 6; ++r) cache.allocate(group * 6 + r, nullptr);
    for (std::uint64_t r = 0; r < 6; ++r)
      EXPECT_NE(cache.find(group * 6 + r), nullptr) << "group " << group;
  }
}

TEST(SectorCache, SetDivisorSpreadsASlicesLines) {
  // Two sets, lines of one slice out of 4 (lines 0, 4, 8, ...): set = (line / 4) % 2.
  SectorCache cache(2 * 128, 1, 128, 4, "test");
  cache.allocate(0, nullptr);
  cache.allocate(4, nullptr);
  EXPECT_NE(cache.find(0), nullptr);
  EXPECT_NE(cache.find(4), nullptr);
}

TEST(SectorCache, ZeroCapacityHoldsNothing) {
  SectorCache cache(0, 4, 128, 1, "test");
  EXPECT_FALSE(cache.enabled());
  EXPECT_EQ(cache.find(1), nullptr);
}

TEST(SectorCache, CapacityMustBeWholeSets) {
  try {
    SectorCache cache(3 * 128, 2, 128, 1, "l1 data cache");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("l1 data cache"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sassim::memsys
