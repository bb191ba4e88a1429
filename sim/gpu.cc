#include "sim/gpu.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "configs/derived.h"
#include "ground/error.h"
#include "isa/arch.h"
#include "sim/cluster_launch.h"
#include "sim/control_bits.h"
#include "sim/cta_sampler.h"
#include "sim/cta_warmup.h"
#include "sim/gpu_launch.h"
#include "sim/register_file.h"

namespace sassim::sim {
namespace {

// Generic-address windows of shared and local memory above the trace's base addresses.
constexpr std::uint64_t kSharedWindowBytes = std::uint64_t{1} << 24;
constexpr std::uint64_t kLocalWindowBytes = std::uint64_t{1} << 24;

std::uint32_t round_up(std::uint32_t value, std::uint32_t unit) {
  return unit == 0 ? value : (value + unit - 1) / unit * unit;
}

}  // namespace

CtaResources cta_resources(const traces::KernelInfo& info, const config::GpuConfig& config) {
  CtaResources r;
  r.threads = static_cast<std::uint32_t>(info.block.count());
  r.warps = info.warps_per_cta();
  r.registers = r.warps * round_up(info.nregs * 32, config.sm().register_alloc_unit());
  r.shared_bytes = info.shmem_bytes;
  // CTAs resident at once by every limit but shared memory; the carve-out holds theirs.
  const config::SmConfig& sm = config.sm();
  std::uint32_t ctas = sm.max_ctas();
  if (r.threads != 0) ctas = std::min(ctas, sm.max_threads() / r.threads);
  if (r.warps != 0) ctas = std::min(ctas, sm.max_warps() / r.warps);
  if (r.registers != 0) ctas = std::min(ctas, sm.registers() / r.registers);
  // Nor more than the grid gives an SM: a grid of fewer CTAs than SMs never has two on
  // one SM, and no larger carve-out would raise its occupancy.
  const std::uint64_t num_sms = std::max(config.num_sms(), 1u);
  const std::uint64_t grid_per_sm = (info.grid.count() + num_sms - 1) / num_sms;
  ctas = static_cast<std::uint32_t>(std::min<std::uint64_t>(ctas, grid_per_sm));
  r.shared_carveout_bytes =
      config::shared_carveout_bytes(config, std::max(ctas, 1u), r.shared_bytes);
  return r;
}

namespace {

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
    sm_units_.push_back(sms_.back().get());
    ports_.push_back(dynamic_cast<ClockedUnit*>(&memory_->port(i)));
  }
  // Back to front within the core domain: the memory units were added first, then
  // the SMs, then the SM-to-SM network (it takes what the SMs sent in the same step),
  // then the CTA scheduler (a CTA placed at cycle c issues from c + 1).
  network_ = std::make_unique<SmNetwork>(config.num_sms(), config.cluster().dsmem_latency_cycles());
  for (Sm* sm : sm_pointers) {
    engine_.add(ClockDomain::kCore, sm);
    sm->set_network(&network_->outbox(sm->id()));
  }
  engine_.add(ClockDomain::kCore, network_.get());
  cta_scheduler_ =
      std::make_unique<CtaScheduler>(sm_pointers, core, config.sm().cta_dispatch_interval_cycles());
  cta_scheduler_->set_clusters(GpcLayout::from_config(config),
                               config.cluster().barrier_latency_cycles());
  engine_.add(ClockDomain::kCore, cta_scheduler_.get());
  declare_wakes(sm_pointers);
  StatNameSink names;
  report_all(names);
  stats_schema_ = std::make_shared<const StatsSchema>(names.names());
  summary_ = std::make_unique<KernelSummary>(*stats_schema_, config_);
}

Gpu::~Gpu() = default;

// What a tick can change in other units besides what they are told of themselves (a
// doorbell ring of a Link push, an Sm entry point another unit calls): the memory
// units reach each other only through Links; an SM and its port call each other (the
// SM's next event includes the port's next completion); the CTA scheduler places CTAs
// on SMs, which set up their ports, and hears of retired CTAs.
void Gpu::declare_wakes(const std::vector<Sm*>& sms) {
  const std::vector<ClockedUnit*>& ports = ports_;
  for (ClockedUnit* unit : memory_units_) {
    std::vector<ClockedUnit*> woken;
    for (std::size_t i = 0; i < sms.size(); ++i) {
      if (ports[i] == unit) woken.push_back(sms[i]);
    }
    engine_.set_wakes(unit, std::move(woken));
  }
  std::vector<ClockedUnit*> placed;
  for (std::size_t i = 0; i < sms.size(); ++i) {
    std::vector<ClockedUnit*> woken{cta_scheduler_.get()};
    if (ports[i] != nullptr) woken.push_back(ports[i]);
    engine_.set_wakes(sms[i], std::move(woken));
    placed.push_back(sms[i]);
    if (ports[i] != nullptr) placed.push_back(ports[i]);
  }
  engine_.set_wakes(cta_scheduler_.get(), std::move(placed));
  // The network tells the SMs it delivers to itself (their entry points mark them).
  engine_.set_wakes(network_.get(), {});
}

void Gpu::set_threads(unsigned threads) {
  engine_.set_threads(std::max(threads, 1u));
  const bool tiled = threads > 1;
  for (auto& [domain, tiles] : memory_->tiles()) {
    engine_.set_tiles(domain, tiled ? tiles : std::vector<std::vector<ClockedUnit*>>{});
  }
  engine_.set_tiles(ClockDomain::kCore,
                    tiled ? sm_tiles(sm_units_, ports_) : std::vector<std::vector<ClockedUnit*>>{});
}

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

void Gpu::report_all(StatSink& sink) const {
  for (ClockDomain d : {ClockDomain::kDram, ClockDomain::kL2, ClockDomain::kCore}) {
    for (const ClockedUnit* unit : engine_.units(d)) unit->report(sink);
  }
}

StatsSnapshot Gpu::snapshot() const {
  StatsSnapshot s;
  StatValueSink sink(stats_schema_, s);
  report_all(sink);
  sink.check_complete();
  return s;
}

void Gpu::memcpy_to_device(std::uint64_t address, std::uint64_t bytes) {
  warm_deferred();
  memory_->memcpy_to_device(address, bytes);
}

std::unique_ptr<Gpu::Launch> Gpu::prepare(traces::KernelTrace& kernel, std::size_t order) {
  auto launch = std::make_unique<Launch>();
  launch->trace = &kernel;
  launch->order = order;
  const traces::KernelInfo& info = kernel.info();
  launch->timing =
      std::make_unique<ExecTiming>(config_.sm(), info.arch, *isa::arch_from_name(config_.arch()));
  KernelContext& context = launch->context;
  context.info = &info;
  context.statics = &kernel.statics();
  context.timing = launch->timing.get();
  context.cta = cta_resources(info, config_);
  context.shared_window_size = kSharedWindowBytes;
  context.local_window_size = kLocalWindowBytes;
  context.progress = &launch->progress;
  context.launch_seq = ++launches_;
  launch->control = make_control_bits(listings_, info);
  context.control = launch->control.get();
  if (RegisterReadTable::enabled(config_.sm())) {
    launch->register_reads = std::make_unique<RegisterReadTable>(config_.sm().register_file());
    context.register_reads = launch->register_reads.get();
  }
  check_fits(info, context.cta, config_);
  check_cluster_launch(info, context.cta, config_, GpcLayout::from_config(config_));
  return launch;
}

void Gpu::start(Launch& launch, bool sample_ctas) {
  warm_deferred();
  launch.host_start = std::chrono::steady_clock::now();
  launch.before = snapshot();
  launch.start_cycle = core_cycle();
  // A profiler flushes before a kernel it runs alone; with others running the L2 stays.
  if (config_.simulation().flush_l2_before_kernels() && !cta_scheduler_->busy() && memory_idle()) {
    memory_->flush_l2();
  }
  // The grid's front-end launch time, then its first CTA (SmConfig.grid_launch_*).
  const config::SmConfig& sm = config_.sm();
  Picos not_before = 0;
  if (sm.grid_launch_cycles() != 0 || sm.grid_launch_ns() != 0) {
    const Clock core = engine_.clock(ClockDomain::kCore);
    // Without a launch time the first CTA is placed in the next cycle.
    not_before = core.edge(launch.start_cycle + 1 + sm.grid_launch_cycles()) +
                 static_cast<Picos>(std::llround(sm.grid_launch_ns() * 1000.0));
  }
  if (sample_ctas && launch.trace->info().cluster.count() <= 1) {
    const traces::Dim3& grid = launch.trace->info().grid;
    std::uint64_t per_sm = 0;
    while (per_sm < 1024 &&
           sms_.front()->can_accept(launch.context.cta, static_cast<std::uint32_t>(per_sm + 1))) {
      ++per_sm;
    }
    const KernelSummary* summary = summary_.get();
    launch.cta_sampler = std::make_unique<CtaSampler>(
        std::uint64_t{grid.x} * grid.y * grid.z, per_sm * sms_.size(),
        static_cast<double>(config_.l2().size_bytes()),
        [summary](const StatsSnapshot& s) { return summary->dram_bytes(s); }, CtaSamplingOptions{},
        [summary](const StatsSnapshot& s) {
          return summary->dram_bytes(s) + summary->l2_miss_bytes(s);
        });
    if (sampling_warmup_) {
      launch.cta_sampler->set_warmup(
          [memory = memory_.get(), context = &launch.context](traces::CtaTrace cta) {
            warm_skipped_cta(std::move(cta), *context, *memory);
          });
    }
    launch.context.cta_sampler = launch.cta_sampler.get();
  }
  cta_scheduler_->start_kernel(*launch.trace, launch.context, not_before);
}

void Gpu::defer_warm(std::unique_ptr<Launch> launch) {
  if (!sampling_warmup_) return;
  const double bytes = static_cast<double>(sampler_->signature(launch->order).global_bytes);
  deferred_warms_.emplace_back(std::move(launch), bytes);
  deferred_bytes_ += bytes;
  const double reach = 2.0 * static_cast<double>(config_.l2().size_bytes());
  while (!deferred_warms_.empty() && (deferred_warms_.size() > kMaxDeferredWarms ||
                                      deferred_bytes_ - deferred_warms_.front().second >= reach)) {
    deferred_bytes_ -= deferred_warms_.front().second;
    deferred_warms_.pop_front();
  }
}

void Gpu::warm_deferred() {
  for (auto& [launch, bytes] : deferred_warms_) {
    while (std::optional<traces::CtaTrace> cta = launch->trace->next_cta()) {
      warm_skipped_cta(std::move(*cta), launch->context, *memory_);
    }
  }
  deferred_warms_.clear();
  deferred_bytes_ = 0;
}

bool Gpu::finished(const Launch& launch, std::size_t running) const {
  // A kernel running alone also waits for its memory traffic to drain; with others
  // running, or beside a collective's traffic (memsys/hub_traffic.h), it ends when its
  // last CTA retires.
  return cta_scheduler_->kernel_done(launch.context) &&
         (running > 1 || memory_->hub().busy() || memory_idle());
}

KernelResult Gpu::finish(Launch& launch) {
  cta_scheduler_->remove_kernel(launch.context);
  KernelResult r;
  r.info = launch.trace->info();
  r.start_cycle = launch.start_cycle;
  r.cycles = core_cycle() - launch.start_cycle;
  r.warp_insts = launch.progress.warp_insts.load(std::memory_order_relaxed);
  r.simulated_warp_insts = r.warp_insts;
  StatsSnapshot change = snapshot().minus(launch.before);
  if (const CtaSampler* s = launch.cta_sampler.get(); s != nullptr && s->skipped_ctas() > 0) {
    // The skipped CTAs' time passes now, the kernel alone on the GPU.
    const auto skipped = static_cast<std::uint64_t>(std::llround(s->skipped_cycles()));
    engine_.advance_to(engine_.now() + engine_.clock(ClockDomain::kCore).edge(skipped));
    r.cycles += skipped;
    r.warp_insts += s->skipped_warp_insts();
    r.sampled = true;
    r.waves_sampled = true;
    r.cycles_ci95_pct = 100.0 * s->skipped_cycles_ci95() / static_cast<double>(r.cycles);
    s->extrapolate(change);
  }
  summary_->fill(change, r);
  r.host_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - launch.host_start).count();
  ++kernels_done_;
  return r;
}

}  // namespace sassim::sim
