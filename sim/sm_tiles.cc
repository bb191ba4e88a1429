#include "sim/sm_tiles.h"

#include <algorithm>

namespace sassim::sim {

std::vector<std::vector<ClockedUnit*>> sm_tiles(const std::vector<ClockedUnit*>& sms,
                                                const std::vector<ClockedUnit*>& ports,
                                                const GpcLayout& gpcs, SmTiling tiling) {
  std::vector<std::vector<ClockedUnit*>> tiles;
  if (tiling == SmTiling::kNone) return tiles;
  std::vector<ClockedUnit*> distinct;
  for (ClockedUnit* p : ports) {
    if (p != nullptr) distinct.push_back(p);
  }
  std::sort(distinct.begin(), distinct.end());
  if (std::adjacent_find(distinct.begin(), distinct.end()) != distinct.end()) return tiles;
  auto add = [&](std::uint32_t first, std::uint32_t count) {
    auto& tile = tiles.emplace_back();
    for (std::uint32_t i = first; i < first + count; ++i) {
      if (ports[i] != nullptr) tile.push_back(ports[i]);
    }
    for (std::uint32_t i = first; i < first + count; ++i) tile.push_back(sms[i]);
  };
  const auto n = static_cast<std::uint32_t>(sms.size());
  if (tiling == SmTiling::kPerSm || gpcs.num_sms() != n) {
    if (tiling == SmTiling::kPerGpc) {
      add(0, n);  // no GPC layout of these SMs: all of them are one tile
    } else {
      for (std::uint32_t i = 0; i < n; ++i) add(i, 1);
    }
    return tiles;
  }
  for (std::uint32_t g = 0; g < gpcs.num_gpcs(); ++g) add(gpcs.first_sm(g), gpcs.sms_in(g));
  return tiles;
}

}  // namespace sassim::sim
