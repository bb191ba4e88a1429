// TMA multicast loads (UTMALDG.MULTICAST, cp.async.bulk...multicast::cluster): one
// read of the box from the L2 by the issuing SM's TMA engine, its data written into
// the shared memory of every CTA of the cluster in the trace's CTA mask (bit r: the
// CTA of rank r), and its bytes completing on each such CTA's mbarrier at the same
// shared offset. A CTA on the issuing SM receives them when the copy completes. For
// each other SM holding CTAs of the mask (in the rank order of its first such CTA) the
// data crosses the issuing SM's port into the GPC's SM-to-SM network at
// cluster.dsmem_bytes_per_cycle, one SM after another, and reaches that SM
// cluster.dsmem_latency_cycles after leaving the port; there it is written through the
// SM's shared data path, in its own tick (sim/sm_remote_shared.cc), so the result does
// not depend on the order SMs are ticked in.
#include <algorithm>
#include <bit>

#include "sim/sm.h"
#include "sim/sm_internal.h"

namespace sassim::sim {

void Sm::multicast_issue(const CtaSlot& c, std::uint32_t ranks, std::uint64_t barrier,
                         std::uint64_t bytes) {
  for (std::uint32_t r = ranks; r != 0; r &= r - 1) {
    const auto rank = static_cast<std::uint32_t>(std::countr_zero(r));
    if (const ClusterBarrier::Member* m = c.cluster.barrier->member(rank)) {
      m->sm->multicast_issued(m->cta_slot, barrier, bytes);
    }
  }
}

void Sm::multicast_complete(const CtaSlot& c, std::uint32_t ranks, std::uint64_t barrier,
                            std::uint64_t bytes, std::uint64_t cycle) {
  if (!c.cluster.barrier) return;
  const ClusterBarrier& cluster = *c.cluster.barrier;
  for (std::uint32_t left = ranks; left != 0;) {
    const ClusterBarrier::Member* m =
        cluster.member(static_cast<std::uint32_t>(std::countr_zero(left)));
    left &= left - 1;
    if (m == nullptr) continue;
    if (m->sm == this) {
      wake_mbarrier_waiters(mbarriers_.complete_tx(MbarrierKey{m->cta_slot, barrier}, bytes),
                            cycle);
      continue;
    }
    // The first rank on another SM: the data crosses the network port once for it and
    // the later ranks of the mask on the same SM (taken off `left`).
    RemoteSharedAccess a;
    a.at = cross_network_port(cycle, bytes) + dsmem_latency_;
    a.from_sm = id_;
    a.bytes = bytes;
    a.multicast = true;
    a.seq = remote_seq_++;
    a.barrier = MbarrierKey{m->cta_slot, barrier};
    m->sm->remote_shared_arrives(a);
    for (std::uint32_t rest = left; rest != 0; rest &= rest - 1) {
      const auto rank = static_cast<std::uint32_t>(std::countr_zero(rest));
      const ClusterBarrier::Member* same = cluster.member(rank);
      if (same == nullptr || same->sm != m->sm) continue;
      a.seq = remote_seq_++;
      a.barrier = MbarrierKey{same->cta_slot, barrier};
      same->sm->remote_shared_arrives(a);
      left &= ~(1U << rank);
    }
  }
}

void Sm::multicast_issued(std::uint32_t cta_slot, std::uint64_t barrier, std::uint64_t bytes) {
  mark_changed();
  mbarriers_.issue_tx(MbarrierKey{cta_slot, barrier}, bytes);
}

}  // namespace sassim::sim
