#pragma once
// How the engine may spread the SMs over host threads (Engine::set_tiles): each SM with
// its memory port is a tile of its own, the port first. SMs reach each other only
// through the SM-to-SM network (sim/sm_network.h), which ticks outside every tile, so
// kernels with thread block clusters tile the same way.
#include <vector>

#include "ground/unit.h"

namespace sassim::sim {

// `sms[i]` is SM i; `ports[i]` is the unit its memory port is (null: none the engine
// ticks). No tiles when two SMs share a port unit.
std::vector<std::vector<ClockedUnit*>> sm_tiles(const std::vector<ClockedUnit*>& sms,
                                                const std::vector<ClockedUnit*>& ports);

}  // namespace sassim::sim
