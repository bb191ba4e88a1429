// Distributed shared memory (sm_90 clusters): an access whose address lies in the
// cluster window above the CTA's shared window (sim/cluster_window.h) goes to the shared
// memory of the CTA of that rank. To its own CTA it is an ordinary shared access; to
// another it leaves the address stage for the GPC's SM-to-SM network (sim/sm_network.h)
// instead of the L1: the SM's port into it moves cluster.dsmem_bytes_per_cycle; the
// access reaches the target SM floor(L / 2) cycles after it has left the port
// (L = cluster.dsmem_latency_cycles), takes that SM's shared data path there
// (sim/cluster_shared_access.cc), and its reply is back (its load destinations become
// ready) L - floor(L / 2) cycles after it was served: L after leaving the port when the
// target's data path is free.
#include <algorithm>
#include <bit>

#include "sim/sm.h"
#include "sim/sm_cta_slot.h"
#include "sim/sm_pending_access.h"

namespace sassim::sim {

void Sm::send_dsmem(const memsys::WarpMemAccess& access, Picos now) {
  const std::uint64_t bytes = std::uint64_t{access.bytes_per_thread} *
                              static_cast<unsigned>(std::popcount(access.active_mask));
  const PendingAccess& p = lsu_.pending(access.token);
  const CtaSlot& c = ctas_[warps_[p.slot].cta_slot];
  endpoint_.send_dsmem(c.cluster.barrier.get(), p.dsmem_rank, access.token, bytes,
                       now / clock_.period_ps);
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
