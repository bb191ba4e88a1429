// CTA barriers of the SM: arrivals at the 16 named barriers and the release of the
// warps waiting at one.
#include <algorithm>

#include "sim/sm.h"
#include "sim/sm_cta_slot.h"

namespace sassim::sim {

void Sm::arrive_at_barrier(unsigned slot, const isa::DecodedOpcode& op, bool wait,
                           std::uint64_t cycle) {
  Warp& w = warps_[slot];
  CtaSlot& c = ctas_[w.cta_slot];
  if (wait) {
    w.state = WarpState::kAtBarrier;
    w.barrier_id = op.barrier_id;
    ++counters_.barrier_waits;
  }
  if (c.barriers.arrive(op.barrier_id, op.barrier_threads, c.active_warps)) {
    release_barriers(c, 1U << op.barrier_id, cycle);
  }
}

void Sm::release_barriers(CtaSlot& c, std::uint32_t mask, std::uint64_t cycle) {
  if (mask == 0) return;
  const std::uint64_t resume = cycle + std::max<std::uint32_t>(barrier_latency_, 1);
  for (unsigned slot : c.warp_slots) {
    Warp& w = warps_[slot];
    if (w.state != WarpState::kAtBarrier || (mask & (1U << w.barrier_id)) == 0) continue;
    w.state = WarpState::kRunning;
    advance(slot, resume);
  }
}

}  // namespace sassim::sim
