#pragma once
// What sim/sm_warp_states.cc decides about a warp.
#include <cstdint>

#include "sim/warp.h"

namespace sassim::sim {

// A warp's state at a cycle, the cycle from which time alone may change it, and what
// else it depends on (sm_warp_states.cc).
struct WarpClass {
  WarpCycleState state;
  std::uint64_t until = kNeverCycle;
  std::uint8_t depends = 0;
};

}  // namespace sassim::sim
