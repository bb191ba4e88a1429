#include "sim/cta_warmup.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "traces/warp_stream.h"

namespace sassim::sim {
namespace {

// Whether the L2 sees the access: global memory, or a generic address outside the
// shared and local windows.
bool reaches_l2(const isa::StaticInst& si, std::uint64_t first_address, const KernelContext& k) {
  if (si.op.async != isa::AsyncOp::kNone) return false;
  switch (si.op.space) {
    case isa::MemSpace::kGlobal:
    case isa::MemSpace::kTexture:
      return true;
    case isa::MemSpace::kGeneric: {
      const traces::KernelInfo& info = *k.info;
      const bool shared = first_address >= info.shmem_base &&
                          first_address - info.shmem_base < k.shared_window_size;
      const bool local =
          first_address >= info.local_base && first_address - info.local_base < k.local_window_size;
      return !shared && !local;
    }
    default:
      return false;
  }
}

}  // namespace

void warm_skipped_cta(traces::CtaTrace cta, const KernelContext& kernel,
                      memsys::MemorySystem& memory) {
  std::vector<traces::WarpWindow> warps;
  warps.reserve(cta.warps.size());
  std::uint32_t longest = 0;
  for (traces::WarpStream& w : cta.warps) {
    longest = std::max(longest, w.size());
    warps.emplace_back(std::move(w));
  }
  for (std::uint32_t i = 0; i < longest; ++i) {
    for (traces::WarpWindow& w : warps) {
      if (i >= w.size()) continue;
      const isa::WarpInst& wi = w.inst(i);
      const isa::StaticInst& si = (*kernel.statics)[wi.static_index];
      if (si.op.mem != isa::MemKind::kNone && wi.addr_count != 0) {
        const auto addresses = w.addresses(wi);
        if (reaches_l2(si, addresses.front(), kernel)) {
          std::uint32_t bytes = std::max(si.mem_width_bytes, si.op.access_bytes);
          if (bytes == 0) bytes = 4;
          const bool write =
              si.op.mem != isa::MemKind::kLoad && si.op.mem != isa::MemKind::kAsyncCopy;
          memory.warm_l2(addresses, bytes, write);
        }
      }
      w.forget_before(i + 1);
    }
  }
}

}  // namespace sassim::sim
