// Shared::cluster bulk copies (UBLKCP.S.S: cp.async.bulk.shared::cluster.shared::cta.
// mbarrier::complete_tx::bytes; UBLKRED.S.S: its cp.reduce.async.bulk form): the source
// is the issuing CTA's shared memory, the destination and the mbarrier the copy completes
// on lie in another CTA of the cluster. The trace names that CTA by the window its
// mbarrier address lies in (docs/MODEL.md, "Thread block clusters": rank r at shmem base
// + (1 + r) x window), or, for an mbarrier in the CTA's own window, by its first transfer
// address. The issuing SM's TMA engine reads the source from shared memory
// (memsys::TmaKind::kSharedCopy); then the data crosses the SM's port into the SM-to-SM
// network (sim/sm_network.h; cluster.dsmem_bytes_per_cycle, as distributed shared memory accesses
// and multicast data do), arrives cluster.dsmem_latency_cycles after leaving it, is written through
// the destination SM's shared data path (a reduction: read and written there, twice the bytes) and
// completes its bytes on the destination's mbarrier once it has passed the data path
// (sim/sm_remote_shared.cc). A destination on the issuing SM takes no network crossing. The barrier
// counts the bytes as issued when the copy issues.
#include "sim/sm.h"
#include "sim/sm_cta_slot.h"
#include "sim/sm_pending_access.h"

namespace sassim::sim {

bool Sm::cluster_copy_target(const CtaSlot& c, const std::uint64_t* record, std::size_t words,
                             PendingAccess& p) const {
  const std::uint64_t mbarrier = record[0];
  if (!c.cluster.barrier || mbarrier == traces::kNoTraceValue) return false;
  const KernelContext& kernel = *c.kernel;
  const std::uint64_t base = kernel.info->shmem_base;
  const std::uint64_t window = kernel.shared_window_size;
  std::optional<std::uint32_t> rank = cluster_shared_rank(c, mbarrier);
  std::uint64_t offset = 0;
  if (rank) {
    offset = mbarrier - base - (std::uint64_t{*rank} + 1) * window;
  } else if (mbarrier >= base && mbarrier - base < window && words > traces::kAsyncRecordWords) {
    // The barrier at this offset in the CTA the destination address names.
    rank = cluster_shared_rank(c, record[traces::kAsyncRecordWords]);
    offset = mbarrier - base;
  }
  if (!rank) return false;
  p.cluster_copy = true;
  p.cluster_rank = *rank;
  p.barrier = MbarrierKey{p.barrier.cta_slot, offset};
  return true;
}

void Sm::cluster_copy_issue(const CtaSlot& c, const PendingAccess& p) {
  const ClusterBarrier::Member* m = c.cluster.barrier->member(p.cluster_rank);
  if (m == nullptr) return;
  if (m->sm == &endpoint_) {
    endpoint_.multicast_issued(m->cta_slot, p.barrier.offset, p.tma_bytes);
  } else {
    endpoint_.send(net::TxIssued{m->sm, m->cta_slot, p.barrier.offset, p.tma_bytes});
  }
}

void Sm::cluster_copy_complete(const PendingAccess& p, std::uint64_t cycle) {
  const CtaSlot& c = ctas_[p.barrier.cta_slot];
  if (!c.cluster.barrier) return;
  const ClusterBarrier::Member* m = c.cluster.barrier->member(p.cluster_rank);
  if (m == nullptr) return;  // the destination CTA is not resident
  RemoteSharedAccess a;
  a.from_sm = id_;
  a.seq = endpoint_.next_seq();
  a.bytes = p.tma_bytes;
  a.multicast = true;
  a.bulk_copy = true;
  a.path_bytes = p.cluster_reduce ? 2 * p.tma_bytes : p.tma_bytes;
  a.barrier = MbarrierKey{m->cta_slot, p.barrier.offset};
  if (m->sm == &endpoint_) {
    a.at = cycle;
    endpoint_.remote_shared_arrives(a);
  } else {
    endpoint_.send(net::SharedWrite{m->sm, endpoint_.cross_port(cycle, p.tma_bytes), a});
  }
}

}  // namespace sassim::sim
