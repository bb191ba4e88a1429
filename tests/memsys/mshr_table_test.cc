#include "memsys/mshr_table.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace sassim::memsys {
namespace {

TEST(MshrTable, FindsAllocatesAndReleasesByLine) {
  MshrTable<int> table(2);
  EXPECT_EQ(table.find(7), MshrTable<int>::kNone);
  const std::uint32_t a = table.allocate(7, 0);
  const std::uint32_t b = table.allocate(9, 0);
  EXPECT_TRUE(table.full());
  EXPECT_EQ(table.find(7), a);
  EXPECT_EQ(table.find(9), b);
  table.release(a);
  EXPECT_FALSE(table.full());
  EXPECT_EQ(table.find(7), MshrTable<int>::kNone);
  EXPECT_EQ(table.find(9), b);
}

TEST(MshrTable, IndexStaysExactUnderChurn) {
  // Random allocate/release against a reference map: colliding probe runs must survive
  // deletions without tombstones.
  MshrTable<int> table(64);
  std::map<std::uint64_t, std::uint32_t> reference;
  std::mt19937_64 random(1);
  for (int step = 0; step < 20000; ++step) {
    const std::uint64_t line = random() % 256;
    auto it = reference.find(line);
    if (it != reference.end()) {
      table.release(it->second);
      reference.erase(it);
    } else if (!table.full()) {
      reference[line] = table.allocate(line, 0);
    }
    if (step % 97 == 0) {
      for (std::uint64_t l = 0; l < 256; ++l) {
        auto r = reference.find(l);
        ASSERT_EQ(table.find(l), r == reference.end() ? MshrTable<int>::kNone : r->second)
            << step << " " << l;
      }
    }
  }
  EXPECT_EQ(table.in_use(), reference.size());
}

}  // namespace
}  // namespace sassim::memsys
