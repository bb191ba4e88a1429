// Which memory units may tick on different host threads (MemorySystem::tiles): every
// DRAM channel alone, and the L2 slices grouped by the channels they send to, unless
// near slices fetch far lines from their home slices (slices then feed each other).
#include <gtest/gtest.h>

#include <set>

#include "configs/config_loader.h"
#include "memsys/memory_system.h"

namespace sassim::memsys {
namespace {

using DomainTiles = std::vector<std::vector<ClockedUnit*>>;

DomainTiles tiles_of(MemorySystem& memory, ClockDomain domain) {
  for (auto& [d, tiles] : memory.tiles()) {
    if (d == domain) return tiles;
  }
  return {};
}

std::size_t units_in(const DomainTiles& tiles) {
  std::set<ClockedUnit*> seen;
  for (const auto& t : tiles) seen.insert(t.begin(), t.end());
  return seen.size();
}

TEST(MemoryTiles, EveryChannelIsATile) {
  const config::GpuConfig c = config::load_config("h200");
  auto memory = make_memory_system(c);
  const DomainTiles dram = tiles_of(*memory, ClockDomain::kDram);
  EXPECT_EQ(dram.size(), c.dram().channels());
  EXPECT_EQ(units_in(dram), c.dram().channels());
}

TEST(MemoryTiles, SlicesSharingChannelsShareATile) {
  // h200: 96 slices of 2 channels each; a100: 160 slices on 80 channels, two a channel.
  for (const auto& [preset, tiles, per_tile] :
       {std::tuple{"h200", 96u, 1u}, std::tuple{"a100", 80u, 2u}}) {
    const config::GpuConfig c = config::load_config(preset);
    auto memory = make_memory_system(c);
    const DomainTiles l2 = tiles_of(*memory, ClockDomain::kL2);
    EXPECT_EQ(l2.size(), tiles) << preset;
    EXPECT_EQ(units_in(l2), c.l2().slices()) << preset;
    for (const auto& t : l2) EXPECT_EQ(t.size(), per_tile) << preset;
  }
}

TEST(MemoryTiles, NoSliceTilesWhenNearSlicesFetchFromHomes) {
  const config::GpuConfig c =
      config::load_config("h100", {"interconnect.near_slice_serves_far_reads=true"});
  auto memory = make_memory_system(c);
  EXPECT_TRUE(tiles_of(*memory, ClockDomain::kL2).empty());
  EXPECT_EQ(tiles_of(*memory, ClockDomain::kDram).size(), c.dram().channels());
}

}  // namespace
}  // namespace sassim::memsys
