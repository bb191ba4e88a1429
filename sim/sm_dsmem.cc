// Distributed shared memory (sm_90 clusters): an access whose address lies in the
// cluster window above the CTA's shared window (docs/MODEL.md, "Thread block
// clusters") goes to the shared memory of the CTA of that rank. To its own CTA it is
// an ordinary shared access; to another it leaves the address stage for the GPC's
// SM-to-SM network (sim/sm_network.h) instead of the L1: the SM's port into it moves
// cluster.dsmem_bytes_per_cycle; the access reaches the target SM floor(L / 2) cycles
// after it has left the port (L = cluster.dsmem_latency_cycles), takes that SM's
// shared data path there (sim/sm_remote_shared.cc), and its reply is back (its load
// destinations become ready) L - floor(L / 2) cycles after it was served: L after
// leaving the port when the target's data path is free.
#include <algorithm>
#include <bit>

#include "sim/sm.h"
#include "sim/sm_cta_slot.h"
#include "sim/sm_pending_access.h"

namespace sassim::sim {

std::optional<std::uint32_t> Sm::cluster_shared_rank(const CtaSlot& c,
                                                     std::uint64_t address) const {
  const KernelContext& kernel = *c.kernel;
  const std::uint64_t size = kernel.info->cluster.count();
  const std::uint64_t window = kernel.shared_window_size;
  if (size <= 1 || window == 0 || address < kernel.info->shmem_base) return std::nullopt;
  const std::uint64_t slot = (address - kernel.info->shmem_base) / window;
  if (slot == 0 || slot > size) return std::nullopt;
  return static_cast<std::uint32_t>(slot - 1);
}

void Sm::send_dsmem(const memsys::WarpMemAccess& access, Picos now) {
  const std::uint64_t cycle = now / clock_.period_ps;
  const std::uint64_t bytes = std::uint64_t{access.bytes_per_thread} *
                              static_cast<unsigned>(std::popcount(access.active_mask));
  const std::uint64_t left = endpoint_.cross_port(cycle, bytes);
  const std::uint64_t seq = endpoint_.next_seq();
  const PendingAccess& p = pending_[access.token];
  const CtaSlot& c = ctas_[warps_[p.slot].cta_slot];
  const ClusterBarrier::Member* target =
      c.cluster.barrier ? c.cluster.barrier->member(p.dsmem_rank) : nullptr;
  net::DsmemRequest request{target != nullptr ? target->sm : nullptr, left, {}};
  RemoteSharedAccess& a = request.access;
  a.from_sm = id_;
  a.seq = seq;
  a.bytes = bytes;
  a.sender = &endpoint_;
  a.token = access.token;
  endpoint_.send(request);
}

bool Sm::complete_dsmem(std::uint64_t cycle) {
  bool progress = false;
  std::vector<DsmemReply>& replies = endpoint_.replies();
  while (!replies.empty() && replies.front().at <= cycle) {
    const std::uint32_t token = replies.front().token;
    replies.erase(replies.begin());
    complete_access(token, cycle);
    progress = true;
  }
  return progress;
}

}  // namespace sassim::sim
