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
