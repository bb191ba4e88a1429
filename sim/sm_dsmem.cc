// Distributed shared memory (sm_90 clusters): an access whose address lies in the
// cluster window above the CTA's shared window (docs/MODEL.md, "Thread block
// clusters") goes to the shared memory of the CTA of that rank. To its own CTA it is
// an ordinary shared access; to another it leaves the address stage for the GPC's
// SM-to-SM network instead of the L1: the SM's port into the network moves
// cluster.dsmem_bytes_per_cycle, and the access completes (its load destinations
// become ready) cluster.dsmem_latency_cycles after it has left the port.
#include <algorithm>
#include <bit>

#include "sim/sm.h"
#include "sim/sm_internal.h"

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
  const std::uint64_t start = std::max(cycle, dsmem_free_);
  const std::uint64_t rate = std::max<std::uint32_t>(dsmem_bytes_per_cycle_, 1);
  dsmem_free_ = start + std::max<std::uint64_t>((bytes + rate - 1) / rate, 1);
  dsmem_stage_.push(access.token, now, clock_.edge(dsmem_free_ + dsmem_latency_));
}

bool Sm::complete_dsmem(std::uint64_t cycle, Picos now) {
  bool progress = false;
  while (dsmem_stage_.ready(now)) {
    complete_access(dsmem_stage_.pop(), cycle);
    progress = true;
  }
  return progress;
}

}  // namespace sassim::sim
