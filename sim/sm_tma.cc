// Hopper TMA copies and mbarriers in the SM: UTMALDG / UTMASTG / UTMAPF / UBLKCP go
// through address generation (sim/async_engine.h) to the SM's TMA engine
// (memsys/tma_engine.h); SYNCS init / arrive / wait update the CTA's mbarriers
// (sim/mbarrier.h). A load copy that names an mbarrier adds its bytes to it when issued
// and removes them when the engine completes it; warps waiting on the barrier resume in
// the cycle its phase completes (the cycle after, when an arrive issued in this cycle
// completed it).
#include <algorithm>
#include <bit>
#include <limits>

#include "sim/bulk_groups.h"
#include "sim/cluster_window.h"
#include "sim/sm.h"
#include "sim/sm_cta_slot.h"
#include "sim/sm_pending_access.h"

namespace sassim::sim {
namespace {

// The barrier of SYNCS lines that record no address (one per CTA).
constexpr std::uint64_t kUnnamedBarrier = traces::kNoTraceValue - 1;

}  // namespace

bool Sm::issue_async(unsigned slot, const isa::StaticInst& si, const isa::WarpInst& wi,
                     std::uint64_t cycle, Picos now) {
  Warp& w = warps_[slot];
  if (si.op.async == isa::AsyncOp::kBulkCommit) {
    if (wi.active_mask != 0) commit_bulk_group(w);
    return false;
  }
  // A line without its record (traces/kernel_trace.h) or without active threads
  // takes its unit's latency only.
  if (wi.active_mask == 0 || wi.addr_count < traces::kAsyncRecordWords) return false;
  const CtaSlot& c = ctas_[w.cta_slot];
  const std::uint64_t* record = w.window.addresses(wi).data();
  const std::uint64_t value = record[1];
  // The barrier's shared-memory offset: generic addresses in the shared window are
  // made relative to it; a line without an address names the CTA's unnamed barrier.
  std::uint64_t offset = record[0] == traces::kNoTraceValue ? kUnnamedBarrier : record[0];
  const KernelContext& kernel = kernel_of(w);
  if (offset >= kernel.info->shmem_base &&
      offset - kernel.info->shmem_base < kernel.shared_window_size) {
    offset -= kernel.info->shmem_base;
  }
  const MbarrierKey key{w.cta_slot, offset};
  isa::AsyncOp op = si.op.async;
  if (is_tma_copy(op)) {
    const std::uint32_t token = lsu_.acquire_token();
    PendingAccess& p = lsu_.pending(token);
    p = PendingAccess{};
    p.slot = slot;
    p.tma = true;
    p.tma_bytes = value == traces::kNoTraceValue ? 0 : value;
    if (op == isa::AsyncOp::kClusterCopy || op == isa::AsyncOp::kClusterReduce) {
      // To another CTA's shared memory (sim/cluster_multicast.cc); outside a cluster window
      // taken as a global copy (UBLKCP: a load, UBLKRED: a reduction).
      p.cluster_reduce = op == isa::AsyncOp::kClusterReduce;
      const std::optional<ClusterCopyTarget> target =
          c.cluster.barrier ? cluster_copy_target(kernel, record, wi.addr_count) : std::nullopt;
      if (target) {
        p.cluster_copy = true;
        p.cluster_rank = target->rank;
        p.barrier = MbarrierKey{w.cta_slot, target->barrier};
        endpoint_.copy_issued(*c.cluster.barrier, 1U << target->rank, target->barrier, p.tma_bytes);
      } else {
        op = op == isa::AsyncOp::kClusterCopy ? isa::AsyncOp::kTmaLoad : isa::AsyncOp::kTmaReduce;
        p.cluster_reduce = false;
      }
    }
    // A load whose line names no mbarrier completes on the barrier of its warp's last
    // arrive.expect_tx (the producer pattern), if any.
    const std::uint64_t barrier = record[0] != traces::kNoTraceValue ? offset : w.tx_barrier;
    p.tma_barrier = op == isa::AsyncOp::kTmaLoad && barrier != traces::kNoTraceValue;
    if (!p.cluster_copy) p.barrier = MbarrierKey{w.cta_slot, barrier};
    // Multicast (a CTA of a cluster): the data also goes to the other CTAs of the mask,
    // and to this CTA only when the mask holds its rank.
    const auto mask = static_cast<std::uint32_t>(record[2]);
    if (p.tma_barrier && mask != 0 && c.cluster.barrier) {
      const std::uint32_t own = 1U << c.cluster.rank;
      p.tma_barrier = (mask & own) != 0;
      p.multicast = mask & ~own;
      endpoint_.copy_issued(*c.cluster.barrier, p.multicast, barrier, p.tma_bytes);
    }
    if (p.tma_barrier) async_.mbarriers().issue_tx(p.barrier, p.tma_bytes);
    ++w.outstanding;
    std::uint32_t ack_token = memsys::kNoAckToken;
    if (writes_global(op)) {
      p.bulk = true;
      p.bulk_group = join_bulk_group(w);
      ++w.scoreboards.bulk_issued;
      // p is not used below: acquiring the ack token may grow the token table.
      ack_token = acquire_ack_token(slot, true, p.bulk_group);
    }
    memsys::TmaCopy& copy = async_.stage(token, ack_token, now, kernel.timing->latency(si.op));
    copy.kind = tma_kind(op);
    copy.bytes = static_cast<std::uint32_t>(std::min<std::uint64_t>(
        lsu_.pending(token).tma_bytes, std::numeric_limits<std::uint32_t>::max()));
    copy.transfers.assign(record + traces::kAsyncRecordWords, record + wi.addr_count);
    // The source of a shared::cluster copy: one contiguous run (its address only aligns
    // the sectors).
    if (lsu_.pending(token).cluster_copy) copy.transfers.resize(1, 0);
    return false;
  }
  const bool recorded = value != traces::kNoTraceValue;
  switch (op) {
    case isa::AsyncOp::kMbarInit:
      async_.mbarriers().init(key, recorded ? static_cast<std::uint32_t>(std::min<std::uint64_t>(
                                                  value, std::numeric_limits<std::uint32_t>::max()))
                                            : 1);
      return false;
    case isa::AsyncOp::kMbarArrive:
    case isa::AsyncOp::kMbarArriveTx: {
      MbarrierArrive arrive;
      arrive.arrivals = static_cast<std::uint32_t>(std::popcount(wi.active_mask));
      // An arrive on the mbarrier of another CTA of the cluster (its address in that
      // CTA's cluster window) travels to it (sim/cluster_shared_access.cc).
      const std::optional<ClusterSharedAddress> named =
          op == isa::AsyncOp::kMbarArrive && c.cluster.barrier && record[0] != traces::kNoTraceValue
              ? cluster_shared_address(kernel, record[0])
              : std::nullopt;
      MbarrierKey target = key;
      if (named) {
        target.offset = named->offset;
        if (named->rank != c.cluster.rank) {
          endpoint_.send_arrive(*c.cluster.barrier, named->rank, named->offset, arrive.arrivals,
                                cycle);
          return false;
        }
      }
      arrive.expects_tx = op == isa::AsyncOp::kMbarArriveTx;
      if (arrive.expects_tx && recorded) arrive.tx_bytes = value;
      if (arrive.expects_tx) w.tx_barrier = offset;
      wake_mbarrier_waiters(async_.mbarriers().arrive(target, arrive), cycle + 1);
      return false;
    }
    case isa::AsyncOp::kMbarWait: {
      std::optional<unsigned> parity;
      if (recorded) parity = static_cast<unsigned>(value & 1U);
      if (!async_.mbarriers().wait(key, slot, parity)) return false;
      w.state = WarpState::kWaitMbarrier;
      w.min_issue_cycle = cycle + 1;
      return true;
    }
    default:
      return false;
  }
}

bool Sm::submit_tma_copies(std::uint64_t cycle, Picos now) {
  return async_.submit(now, port_, [&](std::uint32_t token) { complete_access(token, cycle); });
}

void Sm::complete_tma(const PendingAccess& p, std::uint64_t cycle) {
  const ClusterBarrier* cluster = ctas_[p.barrier.cta_slot].cluster.barrier.get();
  if (p.cluster_copy && cluster != nullptr) {
    endpoint_.cluster_copy_complete(*cluster, p.cluster_rank, p.barrier.offset, p.tma_bytes,
                                    p.cluster_reduce, cycle);
  }
  if (p.tma_barrier)
    wake_mbarrier_waiters(async_.mbarriers().complete_tx(p.barrier, p.tma_bytes), cycle);
  if (p.multicast != 0 && cluster != nullptr) {
    endpoint_.multicast_complete(*cluster, p.multicast, p.barrier.offset, p.tma_bytes, cycle);
  }
  if (!p.bulk) return;
  Warp& w = warps_[p.slot];
  bulk_source_read(w, p.bulk_group);
  control_bulk_read(w.scoreboards);
}

void Sm::wake_mbarrier_waiters(const std::vector<unsigned>& slots, std::uint64_t cycle) {
  for (unsigned slot : slots) {
    Warp& w = warps_[slot];
    if (w.state != WarpState::kWaitMbarrier) continue;
    w.state = WarpState::kRunning;
    advance(slot, std::max(w.min_issue_cycle, cycle));
  }
}

}  // namespace sassim::sim
