#pragma once
// One sub-core of an SM: its warp slots, scheduler policy, pipes, LSU queue and the
// warp-state bookkeeping of its warps (sim/sm.cc, sim/sm_warp_states.cc).
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "ground/ring_buffer.h"
#include "ground/unit.h"
#include "isa/opcode.h"
#include "memsys/sm_memory_port.h"
#include "sim/scheduler_policy.h"
#include "sim/warp.h"

namespace sassim::sim {

struct SubCore {
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
  // The LSU instruction queue (sm.mio_queue; sm_mio_queue.cc): memory instructions
  // issued but not yet taken by the sub-core's memory pipe, the cycle the pipe takes
  // the next one, and the queue's length when warp states were last decided.
  struct QueuedAccess {
    memsys::WarpMemAccess access;
    Picos ready_floor = 0;      // leaves address generation no earlier (operand reads)
    std::uint64_t latency = 0;  // address generation, from the pipe taking it
    std::uint64_t interval = 1;
  };
  RingBuffer<QueuedAccess> mio_queue;
  std::uint64_t mio_pipe_free = 0;
  std::size_t mio_queue_seen = 0;
  // By local slot: the cycle before which the warp's cached state holds unless an event
  // marks it (kNeverCycle for free slots).
  std::vector<std::uint64_t> state_until;
};

}  // namespace sassim::sim
