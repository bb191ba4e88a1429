// The per-item figures of the memory estimate at load (configs/memory_estimate.h) bound
// the structures the model builds.
#include <gtest/gtest.h>

#include <cstdint>

#include "configs/memory_estimate.h"
#include "memsys/line_index.h"
#include "memsys/mshr_table.h"
#include "memsys/sector_cache.h"
#include "sim/warp.h"

namespace sassim {
namespace {

TEST(MemoryFigures, BoundTheModelsStructures) {
  // A line, its tag and rank words, and its share of a line index (a key and a slot per
  // bucket; LineIndex rounds twice the lines up to a power of two: at most four buckets).
  constexpr std::uint64_t index_per_line = 4 * (sizeof(std::uint64_t) + sizeof(std::uint32_t));
  EXPECT_LE(sizeof(memsys::SectorCache::Line) + 2 * sizeof(std::uint64_t) + index_per_line,
            config::kCacheLineStateBytes);
  // An MSHR entry, its free and active slots and two index buckets.
  EXPECT_LE(sizeof(memsys::MshrTable<std::uint64_t>::Entry) + 4 * sizeof(std::uint32_t),
            config::kMshrEntryBytes);
  EXPECT_LE(sizeof(sim::Warp), config::kWarpSlotBytes);
  // sim::InstCache keeps three 64-bit words a line.
  EXPECT_EQ(config::kInstCacheLineStateBytes, 3 * sizeof(std::uint64_t));
}

}  // namespace
}  // namespace sassim
