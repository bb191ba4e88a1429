// TMA multicast loads (UTMALDG.MULTICAST, cp.async.bulk...multicast::cluster): one
// read of the box from the L2 by the issuing SM's TMA engine, its data written into
// the shared memory of every CTA of the cluster in the trace's CTA mask (bit r: the
// CTA of rank r), and its bytes completing on each such CTA's mbarrier at the same
// shared offset. A CTA on the issuing SM receives them when the copy completes. For
// each other SM holding CTAs of the mask (in the rank order of its first such CTA) the
// data crosses the issuing SM's port into the GPC's SM-to-SM network at
// cluster.dsmem_bytes_per_cycle, one SM after another, and travels over the SM-to-SM
// network (sim/sm_network.h), reaching that SM cluster.dsmem_latency_cycles after
// leaving the port; there it is written through the SM's shared data path, in its own
// tick (sim/sm_remote_shared.cc). Other SMs' CTAs learn of the copy's bytes on their
// mbarrier over the network too, from the cycle after it issued.
#include <algorithm>
#include <bit>

#include "sim/sm.h"
#include "sim/sm_cta_slot.h"

namespace sassim::sim {

void Sm::multicast_issue(const CtaSlot& c, std::uint32_t ranks, std::uint64_t barrier,
                         std::uint64_t bytes) {
  for (std::uint32_t r = ranks; r != 0; r &= r - 1) {
    const auto rank = static_cast<std::uint32_t>(std::countr_zero(r));
    const ClusterBarrier::Member* m = c.cluster.barrier->member(rank);
    if (m == nullptr) continue;
    if (m->sm == &endpoint_) {
      endpoint_.multicast_issued(m->cta_slot, barrier, bytes);
    } else {
      endpoint_.send(net::TxIssued{m->sm, m->cta_slot, barrier, bytes});
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
    if (m->sm == &endpoint_) {
      wake_mbarrier_waiters(mbarriers_.complete_tx(MbarrierKey{m->cta_slot, barrier}, bytes),
                            cycle);
      continue;
    }
    // The first rank on another SM: the data crosses the network port once for it and
    // the later ranks of the mask on the same SM (taken off `left`).
    net::SharedWrite write{m->sm, endpoint_.cross_port(cycle, bytes), {}};
    RemoteSharedAccess& a = write.access;
    a.from_sm = id_;
    a.bytes = bytes;
    a.multicast = true;
    a.seq = endpoint_.next_seq();
    a.barrier = MbarrierKey{m->cta_slot, barrier};
    endpoint_.send(write);
    for (std::uint32_t rest = left; rest != 0; rest &= rest - 1) {
      const auto rank = static_cast<std::uint32_t>(std::countr_zero(rest));
      const ClusterBarrier::Member* same = cluster.member(rank);
      if (same == nullptr || same->sm != m->sm) continue;
      a.seq = endpoint_.next_seq();
      a.barrier = MbarrierKey{same->cta_slot, barrier};
      endpoint_.send(write);
      left &= ~(1U << rank);
    }
  }
}

}  // namespace sassim::sim
