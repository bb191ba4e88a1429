// Cluster barriers on the SM (UCGABAR_ARV / UCGABAR_WAIT): arrivals go to the cluster's
// barrier (sim/cluster_barrier.h), over the SM-to-SM network (sim/sm_network.h) for a
// CTA of a launched cluster, at once for a CTA without one (a cluster of one); a
// completed phase comes back as a release due the cycle after the last arrival, and the
// SM resumes its waiting warps at the start of that cycle's tick, before their states
// are taken, as a CTA barrier releases them. A warp's WAIT finds its phase completed
// when the SM has heard of the completion (CtaSlot::cluster_phases).
#include <fmt/format.h>

#include <algorithm>

#include "ground/error.h"

#include "sim/sm.h"
#include "sim/sm_internal.h"

namespace sassim::sim {

ClusterBarrier& Sm::cluster_barrier(std::uint32_t cta_slot) {
  CtaSlot& c = ctas_[cta_slot];
  if (!c.cluster.barrier) {
    c.networked = false;
    // A CTA launched without a cluster is a cluster of one.
    c.cluster.barrier = std::make_shared<ClusterBarrier>(cluster_barrier_latency_);
    c.cluster.barrier->join(*this, cta_slot, c.active_warps);
  }
  return *c.cluster.barrier;
}

void Sm::arrive_at_cluster_barrier(unsigned slot, std::uint64_t cycle) {
  Warp& w = warps_[slot];
  ClusterBarrier& barrier = cluster_barrier(w.cta_slot);
  const CtaSlot& c = ctas_[w.cta_slot];
  w.cluster_phase = c.cluster_phases;
  w.cluster_arrived = true;
  if (c.networked) {
    outbox().send(net::BarrierArrive{c.cluster.barrier, cycle});
  } else {
    barrier.arrive(cycle);
  }
}

bool Sm::cluster_phase_completed(const Warp& w) const {
  return ctas_[w.cta_slot].cluster_phases > w.cluster_phase;
}

SmNetwork::Outbox& Sm::outbox() const {
  if (network_ == nullptr) {
    throw Error(
        fmt::format("internal: {} holds a CTA of a cluster but has no SM-to-SM network", name_));
  }
  return *network_;
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

void Sm::cluster_barrier_completed(std::uint32_t cta_slot, std::uint64_t cycle,
                                   std::uint64_t resume_cycle) {
  CtaSlot& c = ctas_[cta_slot];
  if (!c.used) return;  // retired in this step, before the network delivered
  mark_changed();
  ++c.cluster_phases;
  c.cluster_resume = resume_cycle;
  const ClusterRelease release{cycle + 1, cta_slot, resume_cycle};
  // Kept in delivery order; equal cycles in completion order.
  auto it = std::upper_bound(cluster_releases_.begin(), cluster_releases_.end(), release.at,
                             [](std::uint64_t at, const ClusterRelease& r) { return at < r.at; });
  cluster_releases_.insert(it, release);
}

bool Sm::deliver_cluster_releases(std::uint64_t cycle) {
  // Taken out first: resuming a warp may retire its CTA (which drops the CTA's pending
  // releases) or complete another phase (which adds one).
  auto due_end = std::find_if(cluster_releases_.begin(), cluster_releases_.end(),
                              [&](const ClusterRelease& r) { return r.at > cycle; });
  const std::vector<ClusterRelease> due(cluster_releases_.begin(), due_end);
  cluster_releases_.erase(cluster_releases_.begin(), due_end);
  bool resumed = false;
  for (const ClusterRelease& r : due) {
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
