// Copies from one CTA of a cluster into the shared memory of others (the sending SM's
// side; sim/cluster_shared_access.cc is the receiving one).
//
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
// tick. Other SMs' CTAs learn of the copy's bytes on their mbarrier over the network
// too, from the cycle after it issued.
//
// Shared::cluster bulk copies (UBLKCP.S.S: cp.async.bulk.shared::cluster.shared::cta.
// mbarrier::complete_tx::bytes; UBLKRED.S.S: its cp.reduce.async.bulk form): the source
// is the issuing CTA's shared memory, the destination and the mbarrier the copy
// completes on lie in another CTA of the cluster (sim/cluster_window.h). The issuing
// SM's TMA engine reads the source from shared memory (memsys::TmaKind::kSharedCopy);
// then the data crosses the SM's port into the network, as multicast data does,
// arrives cluster.dsmem_latency_cycles after leaving it, is written through the
// destination SM's shared data path (a reduction: read and written there, twice the
// bytes) and completes its bytes on the destination's mbarrier once it has passed the
// data path. A destination on the issuing SM takes no network crossing. The barrier
// counts the bytes as issued when the copy issues.
#include <bit>

#include "sim/cluster_endpoint.h"

namespace sassim::sim {

void ClusterEndpoint::copy_issued(const ClusterBarrier& cluster, std::uint32_t ranks,
                                  std::uint64_t barrier, std::uint64_t bytes) {
  for (std::uint32_t r = ranks; r != 0; r &= r - 1) {
    const ClusterBarrier::Member* m =
        cluster.member(static_cast<std::uint32_t>(std::countr_zero(r)));
    if (m == nullptr) continue;
    if (m->sm == this) {
      multicast_issued(m->cta_slot, barrier, bytes);
    } else {
      send(net::TxIssued{m->sm, m->cta_slot, barrier, bytes});
    }
  }
}

void ClusterEndpoint::multicast_complete(const ClusterBarrier& cluster, std::uint32_t ranks,
                                         std::uint64_t barrier, std::uint64_t bytes,
                                         std::uint64_t cycle) {
  for (std::uint32_t left = ranks; left != 0;) {
    const ClusterBarrier::Member* m =
        cluster.member(static_cast<std::uint32_t>(std::countr_zero(left)));
    left &= left - 1;
    if (m == nullptr) continue;
    if (m->sm == this) {
      listener_.tx_completed(m->cta_slot, barrier, bytes, cycle);
      continue;
    }
    // The first rank on another SM: the data crosses the network port once for it and
    // the later ranks of the mask on the same SM (taken off `left`).
    net::SharedWrite write{m->sm, cross_port(cycle, bytes), {}};
    RemoteSharedAccess& a = write.access;
    a.from_sm = sm_;
    a.bytes = bytes;
    a.multicast = true;
    a.seq = next_seq();
    a.barrier = MbarrierKey{m->cta_slot, barrier};
    send(write);
    for (std::uint32_t rest = left; rest != 0; rest &= rest - 1) {
      const auto rank = static_cast<std::uint32_t>(std::countr_zero(rest));
      const ClusterBarrier::Member* same = cluster.member(rank);
      if (same == nullptr || same->sm != m->sm) continue;
      a.seq = next_seq();
      a.barrier = MbarrierKey{same->cta_slot, barrier};
      send(write);
      left &= ~(1U << rank);
    }
  }
}

void ClusterEndpoint::cluster_copy_complete(const ClusterBarrier& cluster, std::uint32_t rank,
                                            std::uint64_t barrier, std::uint64_t bytes, bool reduce,
                                            std::uint64_t cycle) {
  const ClusterBarrier::Member* m = cluster.member(rank);
  if (m == nullptr) return;  // the destination CTA is not resident
  RemoteSharedAccess a;
  a.from_sm = sm_;
  a.seq = next_seq();
  a.bytes = bytes;
  a.multicast = true;
  a.bulk_copy = true;
  a.path_bytes = reduce ? 2 * bytes : bytes;
  a.barrier = MbarrierKey{m->cta_slot, barrier};
  if (m->sm == this) {
    a.at = cycle;
    remote_shared_arrives(a);
  } else {
    send(net::SharedWrite{m->sm, cross_port(cycle, bytes), a});
  }
}

}  // namespace sassim::sim
