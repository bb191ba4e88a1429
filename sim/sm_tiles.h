#pragma once
// How the engine may spread the SMs over host threads (Engine::set_tiles): each SM
// with its memory port is a tile of its own, or, while a kernel with thread block
// clusters runs (its SMs call each other: cluster barriers, DSMEM, multicast), the SMs
// of one GPC and their ports are one tile. Within a tile the units keep the order
// they tick in without tiles: the ports, then the SMs.
#include <vector>

#include "ground/unit.h"
#include "sim/gpc_layout.h"

namespace sassim::sim {

enum class SmTiling : unsigned char { kNone, kPerSm, kPerGpc };

// `sms[i]` is SM i; `ports[i]` is the unit its memory port is (null: none the engine ticks). No
// tiles when two SMs share a port unit.
std::vector<std::vector<ClockedUnit*>> sm_tiles(const std::vector<ClockedUnit*>& sms,
                                                const std::vector<ClockedUnit*>& ports,
                                                const GpcLayout& gpcs, SmTiling tiling);

}  // namespace sassim::sim
