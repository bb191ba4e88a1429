// Cluster barriers on the SM (UCGABAR_ARV / UCGABAR_WAIT): arrivals go to the cluster's
// barrier (sim/cluster_barrier.h), over the SM-to-SM network (sim/sm_network.h) for a
// CTA of a launched cluster, at once for a CTA without one (a cluster of one); a
// completed phase comes back as a release due the cycle after the last arrival, and the
// SM resumes its waiting warps at the start of that cycle's tick, before their states
// are taken, as a CTA barrier releases them. A warp's WAIT finds its phase completed
// when the SM has heard of the completion (CtaSlot::cluster_phases).
#include <algorithm>

#include "sim/sm.h"
#include "sim/sm_cta_slot.h"

namespace sassim::sim {

ClusterBarrier& Sm::cluster_barrier(std::uint32_t cta_slot) {
  CtaSlot& c = ctas_[cta_slot];
  if (!c.cluster.barrier) {
    // A CTA launched without a cluster is a cluster of one.
    c.cluster.barrier = std::make_shared<ClusterBarrier>(cluster_barrier_latency_);
    c.cluster.barrier->join(endpoint_, cta_slot, c.active_warps);
  }
  return *c.cluster.barrier;
}

void Sm::arrive_at_cluster_barrier(unsigned slot, std::uint64_t cycle) {
  Warp& w = warps_[slot];
  cluster_barrier(w.cta_slot);
  const CtaSlot& c = ctas_[w.cta_slot];
  w.cluster_phase = c.cluster_phases;
  w.cluster_arrived = true;
  cluster_event(c, net::BarrierArrive{c.cluster.barrier, cycle});
}

void Sm::cluster_event(const CtaSlot& c, net::Message event) {
  if (c.networked()) {
    endpoint_.send(std::move(event));
  } else {
    apply_barrier_event(event);
  }
}

bool Sm::cluster_phase_completed(const Warp& w) const {
  return ctas_[w.cta_slot].cluster_phases > w.cluster_phase;
}

bool Sm::holds_cta(std::uint32_t cta_slot) const {
  return ctas_[cta_slot].used;
}

void Sm::cluster_phase_completed(std::uint32_t cta_slot, std::uint64_t resume) {
  CtaSlot& c = ctas_[cta_slot];
  ++c.cluster_phases;
  c.cluster_resume = resume;
}

void Sm::tx_issued(std::uint32_t cta_slot, std::uint64_t barrier, std::uint64_t bytes) {
  async_.mbarriers().issue_tx(MbarrierKey{cta_slot, barrier}, bytes);
}

void Sm::tx_completed(std::uint32_t cta_slot, std::uint64_t barrier, std::uint64_t bytes,
                      std::uint64_t cycle) {
  wake_mbarrier_waiters(async_.mbarriers().complete_tx(MbarrierKey{cta_slot, barrier}, bytes),
                        cycle);
}

void Sm::remote_arrived(std::uint32_t cta_slot, std::uint64_t barrier, std::uint32_t arrivals,
                        std::uint64_t cycle) {
  MbarrierArrive arrive;
  arrive.arrivals = arrivals;
  wake_mbarrier_waiters(async_.mbarriers().arrive(MbarrierKey{cta_slot, barrier}, arrive),
                        cycle + 1);
}

bool Sm::wait_at_cluster_barrier(unsigned slot, std::uint64_t cycle, std::uint64_t& next_issue) {
  Warp& w = warps_[slot];
  if (!w.cluster_arrived) return false;  // no arrival to wait for
  w.cluster_arrived = false;
  const CtaSlot& c = ctas_[w.cta_slot];
  if (cluster_phase_completed(w)) {
    if (w.cluster_phase + 1 == c.cluster_phases) {
      next_issue = std::max(next_issue, c.cluster_resume);
    }
    return false;
  }
  w.state = WarpState::kAtBarrier;
  w.barrier_id = CtaBarriers::kClusterBarrierId;
  w.min_issue_cycle = cycle + 1;
  ++counters_.barrier_waits;
  return true;
}

bool Sm::deliver_cluster_releases(std::uint64_t cycle) {
  // Taken out first: resuming a warp may retire its CTA (which drops the CTA's pending
  // releases) or complete another phase (which adds one).
  std::vector<ClusterEndpoint::Release>& releases = endpoint_.releases();
  auto due_end = std::find_if(releases.begin(), releases.end(),
                              [&](const ClusterEndpoint::Release& r) { return r.at > cycle; });
  const std::vector<ClusterEndpoint::Release> due(releases.begin(), due_end);
  releases.erase(releases.begin(), due_end);
  bool resumed = false;
  for (const ClusterEndpoint::Release& r : due) {
    const CtaSlot& c = ctas_[r.cta_slot];
    for (std::size_t i = 0; c.used && i < c.warp_slots.size(); ++i) {
      const unsigned slot = c.warp_slots[i];
      Warp& w = warps_[slot];
      if (w.state != WarpState::kAtBarrier || w.barrier_id != CtaBarriers::kClusterBarrierId) {
        continue;
      }
      w.state = WarpState::kRunning;
      advance(slot, r.resume);
      resumed = true;
    }
  }
  return resumed;
}

}  // namespace sassim::sim
