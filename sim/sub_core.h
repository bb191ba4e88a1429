#pragma once
// One sub-core of an SM: its warp slots, scheduler policy, pipes and the
// warp-state bookkeeping of its warps (sim/sm.cc, sim/sm_warp_states.cc).
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "ground/unit.h"
#include "isa/opcode.h"
#include "sim/scheduler_policy.h"
#include "sim/warp.h"

namespace sassim::sim {

struct SubCore {
  std::size_t index = 0;  // in the SM
  std::unique_ptr<SchedulerPolicy> policy;
  std::vector<unsigned> slots;      // warp slots served by this sub-core, by local index
  std::vector<std::uint64_t> ages;  // launch order of the warp in each local slot
  std::array<std::uint64_t, isa::kNumUnitClasses> unit_free{};  // next cycle each pipe accepts
  // Control-bit mode: a warp whose instruction had the yield bit (bit of its local
  // slot) gives way to any other ready warp in cycle yield_cycle.
  std::uint64_t yield_mask = 0;
  std::uint64_t yield_cycle = kNeverCycle;
  // Register-bank conflicts: the sub-core issues nothing before dispatch_free; the warp
  // in slot dispatch_slot waits for its own delayed dispatch.
  std::uint64_t dispatch_free = 0;
  unsigned dispatch_slot = 0;
  // Warp-state accounting (sm_warp_states.cc), bits by local slot: warps to
  // reclassify; those whose state depends on this sub-core's pipes and dispatch (they
  // passed their ready cycle) or on the address stage's fullness; those the front end
  // holds; those that wait for an event (not running, or for a load).
  std::uint64_t reclassify = 0, depends_on_issue = 0, depends_on_address_stage = 0;
  std::uint64_t fetch_stalled = 0, blocked = ~std::uint64_t{0};
  // The length of its LSU instruction queue (sim/lsu.h) when warp states were last
  // decided.
  std::size_t lsu_queue_seen = 0;
  // By local slot: the cycle before which the warp's cached state holds unless an event
  // marks it (kNeverCycle for free slots).
  std::vector<std::uint64_t> state_until;
};

}  // namespace sassim::sim
