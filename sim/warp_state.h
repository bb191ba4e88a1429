#pragma once
// Where a resident warp's cycles go, named after Nsight Compute's warp states. Every
// resident warp is in exactly one of these states in every cycle.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sassim::sim {

enum class WarpCycleState : std::uint8_t {
  kSelected,          // issued an instruction this cycle
  kNotSelected,       // could issue, another warp of its sub-core did
  kLongScoreboard,    // waits for a global/local load (or async copies at DEPBAR)
  kShortScoreboard,   // waits for a shared-memory load
  kWait,              // waits for a fixed-latency dependency or its issue slot
  kMathPipeThrottle,  // its arithmetic pipe is busy
  kLgThrottle,        // a global/local instruction: the memory pipe is busy or its
                      // address stage is full (Nsight's LSU queue)
  kBarrier,           // waits at BAR.SYNC for its CTA
  kMembar,            // waits at MEMBAR for its outstanding accesses
  kDrain,             // finished its instructions, its stores are draining
  kBranchResolving,   // a taken branch: waits for the target to be known
  kNoInstruction,     // its instruction buffer is empty (fetch or decode pending)
  kDispatchStall,     // its sub-core's dispatch is held by a register-bank conflict
  kMioThrottle,       // a shared-memory instruction: the memory pipe is busy or its
                      // address stage is full (Nsight's MIO queue)
};
inline constexpr std::size_t kNumWarpCycleStates = 14;

inline std::string_view warp_cycle_state_name(WarpCycleState s) {
  constexpr std::array<std::string_view, kNumWarpCycleStates> kNames = {
      "selected",           "not_selected",   "long_scoreboard", "short_scoreboard", "wait",
      "math_pipe_throttle", "lg_throttle",    "barrier",         "membar",           "drain",
      "branch_resolving",   "no_instruction", "dispatch_stall",  "mio_throttle"};
  return kNames[static_cast<std::size_t>(s)];
}

}  // namespace sassim::sim
