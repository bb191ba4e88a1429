#pragma once
// What the SMs need to know about the kernel whose CTAs they run.
#include <atomic>
#include <cstdint>

#include "sim/exec_timing.h"
#include "traces/kernel_trace.h"

namespace sassim::config {
class GpuConfig;
}

namespace sassim::sim {

class ControlBitsTable;
class RegisterReadTable;
class CtaSampler;

// Resources one CTA holds on an SM while resident.
struct CtaResources {
  std::uint32_t threads = 0;
  std::uint32_t warps = 0;
  std::uint32_t registers = 0;  // after per-warp allocation granularity
  std::uint32_t shared_bytes = 0;
  // Shared-memory carve-out the kernel runs with (config::shared_carveout_bytes); an SM
  // takes it when the kernel's CTA is the first to arrive on the empty SM.
  // kKeepCarveout: the SM keeps its carve-out (l1.shared_memory_bytes unless changed).
  static constexpr std::uint32_t kKeepCarveout = ~std::uint32_t{0};
  std::uint32_t shared_carveout_bytes = kKeepCarveout;
};

// One CTA's resources on `config`, and the carve-out the kernel runs with: the smallest
// option that holds the shared memory of the CTAs an SM can keep resident by its other
// limits (threads, warps, registers, CTA slots) and by the grid (ceil(CTAs / SMs)).
CtaResources cta_resources(const traces::KernelInfo& info, const config::GpuConfig& config);

struct KernelContext {
  // Counters of one launch, kept apart from the per-unit counters so that kernels
  // running concurrently are told apart. SMs ticking on different host threads add
  // to them.
  struct Progress {
    std::atomic<std::uint64_t> warp_insts{0};
    std::atomic<std::uint64_t> ctas_retired{0};
  };

  const traces::KernelInfo* info = nullptr;
  const traces::StaticInstTable* statics = nullptr;
  const ExecTiming* timing = nullptr;
  CtaResources cta;
  // Generic addresses in [base, base + size) belong to shared / local memory.
  std::uint64_t shared_window_size = 0;
  std::uint64_t local_window_size = 0;
  // Numbers the launches of a run from 1 (0: not numbered): an SM seeing a new one
  // invalidates its L1 data cache.
  std::uint64_t launch_seq = 0;
  Progress* progress = nullptr;  // owned by whoever launched the kernel; may be null
  // Control-bit mode (`sassim run --sass`): the kernel's listing; null otherwise.
  ControlBitsTable* control = nullptr;
  // Register-bank read cost by static instruction (`sm.register_file`); null = none.
  RegisterReadTable* register_reads = nullptr;
  // Sampling within the kernel (sim/cta_sampler.h; null: every CTA in detail).
  CtaSampler* cta_sampler = nullptr;
};

// Told when an SM frees the resources of a CTA.
class CtaRetireListener {
 public:
  virtual ~CtaRetireListener() = default;
  virtual void cta_retired(std::uint32_t sm_id, const KernelContext& kernel) = 0;
};

}  // namespace sassim::sim
