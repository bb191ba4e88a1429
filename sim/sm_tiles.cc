#include "sim/sm_tiles.h"

#include <algorithm>

namespace sassim::sim {

std::vector<std::vector<ClockedUnit*>> sm_tiles(const std::vector<ClockedUnit*>& sms,
                                                const std::vector<ClockedUnit*>& ports) {
  std::vector<std::vector<ClockedUnit*>> tiles;
  std::vector<ClockedUnit*> distinct;
  for (ClockedUnit* p : ports) {
    if (p != nullptr) distinct.push_back(p);
  }
  std::sort(distinct.begin(), distinct.end());
  if (std::adjacent_find(distinct.begin(), distinct.end()) != distinct.end()) return tiles;
  for (std::size_t i = 0; i < sms.size(); ++i) {
    auto& tile = tiles.emplace_back();
    if (ports[i] != nullptr) tile.push_back(ports[i]);
    tile.push_back(sms[i]);
  }
  return tiles;
}

}  // namespace sassim::sim
