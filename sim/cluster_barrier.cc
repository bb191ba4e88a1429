#include "sim/cluster_barrier.h"

#include <algorithm>

namespace sassim::sim {

void ClusterBarrier::join(ClusterBarrierMember& sm, std::uint32_t cta_slot, std::uint32_t warps,
                          std::uint32_t rank) {
  members_.push_back({&sm, cta_slot, rank});
  expected_ += warps;
}

void ClusterBarrier::leave(const ClusterBarrierMember& sm, std::uint32_t cta_slot) {
  std::erase_if(members_, [&](const Member& m) { return m.sm == &sm && m.cta_slot == cta_slot; });
}

std::uint64_t ClusterBarrier::arrive(std::uint64_t cycle) {
  const std::uint64_t phase = phase_;
  ++arrived_;
  complete_if_all_arrived(cycle);
  return phase;
}

void ClusterBarrier::warp_exited(std::uint64_t cycle, bool arrived_in_current_phase) {
  if (arrived_in_current_phase) {
    ++leaving_;
    return;
  }
  --expected_;
  if (arrived_ != 0) complete_if_all_arrived(cycle);
}

void ClusterBarrier::complete_if_all_arrived(std::uint64_t cycle) {
  if (arrived_ < expected_) return;
  arrived_ = 0;
  expected_ -= leaving_;
  leaving_ = 0;
  ++phase_;
  resume_ = cycle + latency_;
  for (const Member& m : members_) m.sm->cluster_barrier_completed(m.cta_slot, cycle, resume_);
}

}  // namespace sassim::sim
