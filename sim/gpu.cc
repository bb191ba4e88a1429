#include "sim/gpu.h"

#include <chrono>

#include <fmt/format.h>

#include "configs/derived.h"
#include "isa/arch.h"
#include "isa/error.h"

namespace sassim::sim {
namespace {

// Generic-address windows of shared and local memory above the trace's base addresses.
constexpr std::uint64_t kSharedWindowBytes = std::uint64_t{1} << 24;
constexpr std::uint64_t kLocalWindowBytes = std::uint64_t{1} << 24;

std::uint32_t round_up(std::uint32_t value, std::uint32_t unit) {
  return unit == 0 ? value : (value + unit - 1) / unit * unit;
}

CtaResources cta_resources(const traces::KernelInfo& info, const config::GpuConfig& config) {
  CtaResources r;
  r.threads = static_cast<std::uint32_t>(info.block.count());
  r.warps = info.warps_per_cta();
  r.registers = r.warps * round_up(info.nregs * 32, config.sm().register_alloc_unit());
  r.shared_bytes = info.shmem_bytes;
  return r;
}

void check_fits(const traces::KernelInfo& info, const CtaResources& r, const config::GpuConfig& c) {
  auto fail = [&](std::string_view what, std::uint64_t need, std::uint64_t have) {
    throw Error(
        fmt::format("{}: kernel {} ({}) cannot run on {}: one CTA needs {} {} but an SM has {}",
                    info.source, info.id, info.name, c.name(), need, what, have));
  };
  if (r.threads > c.sm().max_threads()) fail("threads", r.threads, c.sm().max_threads());
  if (r.warps > c.sm().max_warps()) fail("warps", r.warps, c.sm().max_warps());
  if (r.registers > c.sm().registers()) fail("registers", r.registers, c.sm().registers());
  if (r.shared_bytes > c.l1().shared_memory_bytes()) {
    fail("bytes of shared memory", r.shared_bytes, c.l1().shared_memory_bytes());
  }
}

}  // namespace

Gpu::Gpu(const config::GpuConfig& config)
    : config_(config),
      engine_(
          Clock::from_mhz(config.clocks().core_mhz()), Clock::from_mhz(config.clocks().l2_mhz()),
          Clock::from_mhz(config::dram_clock_mhz(config)), config.simulation().deadlock_cycles()),
      memory_(memsys::make_memory_system(config)) {
  const Clock core = engine_.clock(ClockDomain::kCore);
  for (auto& [domain, unit] : memory_->units()) {
    engine_.add(domain, unit);
    memory_units_.push_back(unit);
  }
  std::vector<Sm*> sm_pointers;
  for (std::uint32_t i = 0; i < config.num_sms(); ++i) {
    sms_.push_back(std::make_unique<Sm>(i, config, memory_->port(i), core));
    sm_pointers.push_back(sms_.back().get());
  }
  // Back to front within the core domain: the memory units were added first, then
  // the SMs, then the CTA scheduler (a CTA placed at cycle c issues from c + 1).
  for (Sm* sm : sm_pointers) engine_.add(ClockDomain::kCore, sm);
  cta_scheduler_ = std::make_unique<CtaScheduler>(sm_pointers, core);
  engine_.add(ClockDomain::kCore, cta_scheduler_.get());
}

Gpu::~Gpu() = default;

bool Gpu::memory_idle() const {
  for (const ClockedUnit* unit : memory_units_) {
    if (unit->busy()) return false;
  }
  return true;
}

std::uint64_t Gpu::total_warp_insts() const {
  std::uint64_t n = 0;
  for (const auto& sm : sms_) n += sm->counters().warp_insts;
  return n;
}

StatsSnapshot Gpu::snapshot() const {
  StatsSnapshot s;
  for (ClockDomain d : {ClockDomain::kDram, ClockDomain::kL2, ClockDomain::kCore}) {
    for (const ClockedUnit* unit : engine_.units(d)) unit->report(s);
  }
  return s;
}

void Gpu::memcpy_to_device(std::uint64_t address, std::uint64_t bytes) {
  memory_->memcpy_to_device(address, bytes);
}

KernelResult Gpu::run_kernel(traces::KernelTrace& kernel) {
  const auto host_start = std::chrono::steady_clock::now();
  const traces::KernelInfo& info = kernel.info();
  ExecTiming timing(config_.sm(), info.arch, *isa::arch_from_name(config_.arch()));
  KernelContext context;
  context.info = &info;
  context.statics = &kernel.statics();
  context.timing = &timing;
  context.cta = cta_resources(info, config_);
  context.shared_window_size = kSharedWindowBytes;
  context.local_window_size = kLocalWindowBytes;
  check_fits(info, context.cta, config_);

  if (kernels_done_ > 0) {
    const Clock core = engine_.clock(ClockDomain::kCore);
    engine_.advance_to(engine_.now() +
                       core.edge(config_.simulation().kernel_launch_latency_cycles()));
  }
  const StatsSnapshot before = snapshot();
  const std::uint64_t start_cycle = core_cycle();
  cta_scheduler_->start_kernel(kernel, context);
  const std::uint64_t insts_before = total_warp_insts();
  std::uint64_t steps = 0;
  engine_.run_until([&] {
    if (progress_ && (++steps & 0xffff) == 0) {
      progress_({kernels_done_, &info, core_cycle(), total_warp_insts()});
    }
    return cta_scheduler_->kernel_done() && memory_idle();
  });

  KernelResult r;
  r.info = info;
  r.start_cycle = start_cycle;
  r.cycles = core_cycle() - start_cycle;
  r.warp_insts = total_warp_insts() - insts_before;
  r.stats = snapshot().minus(before);
  r.ipc = r.cycles == 0 ? 0.0 : static_cast<double>(r.warp_insts) / static_cast<double>(r.cycles);
  const double l1_accesses = r.stats.sum("gpu.sm[", ".l1.sector_accesses");
  const double l2_accesses = r.stats.sum("gpu.l2.slice[", ".sector_accesses");
  r.l1_hit_rate = l1_accesses == 0 ? 0.0 : r.stats.sum("gpu.sm[", ".l1.sector_hits") / l1_accesses;
  r.l2_hit_rate =
      l2_accesses == 0 ? 0.0 : r.stats.sum("gpu.l2.slice[", ".sector_hits") / l2_accesses;
  r.dram_bytes = r.stats.sum("gpu.dram.channel[", ".read_bytes") +
                 r.stats.sum("gpu.dram.channel[", ".write_bytes");
  const double seconds = static_cast<double>(r.cycles) / (config_.clocks().core_mhz() * 1e6);
  r.dram_gbps = seconds == 0 ? 0.0 : r.dram_bytes / seconds / 1e9;
  r.host_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
  ++kernels_done_;
  return r;
}

std::vector<KernelResult> Gpu::run(traces::Workload& workload, const ProgressCallback& progress) {
  progress_ = progress;
  std::vector<KernelResult> results;
  while (auto command = workload.next()) {
    if (auto* copy = std::get_if<traces::MemcpyHtoD>(&*command)) {
      memcpy_to_device(copy->address, copy->bytes);
      continue;
    }
    auto& launch = std::get<traces::KernelLaunch>(*command);
    results.push_back(run_kernel(*launch.kernel));
    if (progress_) progress_({kernels_done_, nullptr, core_cycle(), total_warp_insts()});
  }
  progress_ = {};
  return results;
}

}  // namespace sassim::sim
