// TMA multicast loads (UTMALDG.MULTICAST, cp.async.bulk...multicast::cluster): one
// read of the box from the L2 by the issuing SM's TMA engine, its data written into
// the shared memory of every CTA of the cluster in the trace's CTA mask (bit r: the
// CTA of rank r), and its bytes completing on each such CTA's mbarrier at the same
// shared offset. A CTA on the issuing SM receives them when the copy completes, a CTA
// on another SM of the cluster cluster.dsmem_latency_cycles later (over the GPC's
// SM-to-SM network; its bandwidth is not charged). The target SM completes the
// transactions in its own tick, so the result does not depend on the order SMs are
// ticked in.
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
  for (std::uint32_t r = ranks; r != 0; r &= r - 1) {
    const auto rank = static_cast<std::uint32_t>(std::countr_zero(r));
    if (const ClusterBarrier::Member* m = c.cluster.barrier->member(rank)) {
      m->sm->multicast_written(m->cta_slot, barrier, bytes,
                               m->sm == this ? cycle : cycle + dsmem_latency_);
    }
  }
}

void Sm::multicast_issued(std::uint32_t cta_slot, std::uint64_t barrier, std::uint64_t bytes) {
  mbarriers_.issue_tx(MbarrierKey{cta_slot, barrier}, bytes);
}

void Sm::multicast_written(std::uint32_t cta_slot, std::uint64_t barrier, std::uint64_t bytes,
                           std::uint64_t cycle) {
  const MulticastWrite write{cycle, MbarrierKey{cta_slot, barrier}, bytes};
  // Kept in delivery order; equal cycles in arrival order.
  auto it = std::upper_bound(multicast_writes_.begin(), multicast_writes_.end(), write.at,
                             [](std::uint64_t at, const MulticastWrite& w) { return at < w.at; });
  multicast_writes_.insert(it, write);
}

bool Sm::deliver_multicast(std::uint64_t cycle) {
  bool progress = false;
  while (!multicast_writes_.empty() && multicast_writes_.front().at <= cycle) {
    const MulticastWrite w = multicast_writes_.front();
    multicast_writes_.erase(multicast_writes_.begin());
    wake_mbarrier_waiters(mbarriers_.complete_tx(w.barrier, w.bytes), cycle);
    progress = true;
  }
  return progress;
}

}  // namespace sassim::sim
