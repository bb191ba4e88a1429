#pragma once
// The assembled GPU: SMs, CTA scheduler and memory system driven by one engine.
// Runs a workload's commands: kernel launches start when the launches they depend on
// (the previous one of their stream) are done, so different streams run
// concurrently; memory copies wait for everything before them. Returns one result
// per kernel, in launch order.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "ground/engine.h"
#include "memsys/memory_system.h"
#include "sim/collective_port.h"
#include "sim/cta_scheduler.h"
#include "sim/kernel_result.h"
#include "sim/kernel_sampler.h"
#include "sim/kernel_summary.h"
#include "sim/sm.h"
#include "sim/sm_tiles.h"
#include "sim/stats.h"
#include "traces/kernel_trace.h"
#include "traces/sass/listing.h"

namespace sassim::sim {

// Called after each kernel (results so far) and periodically during one.
struct ProgressEvent {
  std::uint64_t kernels_done = 0;
  std::uint64_t kernels_total = 0;  // 0: not known
  // The oldest running kernel's CTAs retired and in its grid (0 and 0 between kernels).
  std::uint64_t ctas_done = 0, ctas_total = 0;
  const traces::KernelInfo* current = nullptr;  // null between kernels
  std::uint64_t cycle = 0;
  std::uint64_t warp_insts = 0;  // issued so far in the whole run
};
using ProgressCallback = std::function<void(const ProgressEvent&)>;
// Asked between kernels and every 1,024 engine steps: true stops the run, which returns
// the kernels finished so far (Gpu::stopped() then says so).
using StopRequest = std::function<bool()>;

class Gpu {
 public:
  explicit Gpu(const config::GpuConfig& config);
  ~Gpu();

  std::vector<KernelResult> run(traces::Workload& workload, const ProgressCallback& progress = {},
                                const StopRequest& stop = {});
  // Whether the last run() ended on a stop request, before the end of its workload.
  bool stopped() const { return stopped_; }
  // Runs one kernel alone (after whatever ran before).
  KernelResult run_kernel(traces::KernelTrace& kernel);
  void memcpy_to_device(std::uint64_t address, std::uint64_t bytes);
  // Control-bit mode: kernels launched from now on whose name is a function of one of
  // these listings issue by its control bits (sim/control_bits.h).
  void set_sass_listings(std::vector<traces::sass::Listing> listings) {
    listings_ = std::move(listings);
  }

  // Kernel sampling for the launches of run() (null: every launch in detail, the
  // default); the sampler's launches must be the workload's. Estimated launches start
  // when nothing else runs and take the GPU for their estimated cycles; their traces are
  // read to warm the L2 (set_sampling_warmup).
  void set_sampler(KernelSampler* sampler) { sampler_ = sampler; }
  // The collectives of a multi-GPU rank's trace (sim/collective_port.h; null: none
  // allowed, the default). Not with kernel sampling. What the port charges of each
  // collective takes SMs and memory bandwidth (sim/gpu_collectives.h).
  void set_collective_port(CollectivePort* port) { port_ = port; }
  // Runs the memory system until it holds no work: what a multi-GPU rank's collectives
  // left in flight when its run() ended (their reads' responses, their misses to DRAM).
  // Time moves on; no kernel runs.
  void drain_memory();
  // The collectives' memory traffic so far (memsys/hub_traffic.h).
  const memsys::HubTraffic::Counters& collective_traffic() const {
    return memory_->hub().counters();
  }
  // Watches every CTA placement (tests).
  void set_placement_observer(CtaPlacementObserver* observer) {
    cta_scheduler_->set_placement_observer(observer);
  }

  // Sampling within kernels (sim/cta_sampler.h) for launches of run() that start with
  // nothing else running and have no clusters.
  void set_cta_sampling(bool on) { cta_sampling_ = on; }
  // Whether the CTAs sampling skips and the launches it estimates warm the L2 with their
  // accesses (sim/cta_warmup.h; on by default, off only to measure what that is worth).
  void set_sampling_warmup(bool on) { sampling_warmup_ = on; }

  // Host threads the SMs tick on (1: this thread alone, the default). Every result is
  // the same for any count (sim/sm_tiles.h says how SMs are grouped).
  void set_threads(unsigned threads);
  unsigned threads() const { return engine_.threads(); }

  // Every SM's warp-state accounting (sim/sm.h); tests compare the modes.
  void set_warp_state_accounting(WarpStateAccounting mode) {
    for (auto& sm : sms_) sm->set_warp_state_accounting(mode);
  }

  // Every counter now (names in stats_schema()).
  StatsSnapshot snapshot() const;
  const std::shared_ptr<const StatsSchema>& stats_schema() const { return stats_schema_; }
  std::uint64_t core_cycle() const { return engine_.cycle(ClockDomain::kCore); }
  Picos now() const { return engine_.now(); }
  Picos core_period_ps() const { return engine_.clock(ClockDomain::kCore).period_ps; }
  const config::GpuConfig& config() const { return config_; }

 private:
  struct Launch;
  bool memory_idle() const;
  void report_all(StatSink& sink) const;
  std::uint64_t total_warp_insts() const;
  std::unique_ptr<Launch> prepare(traces::KernelTrace& kernel, std::size_t order);
  // sample_ctas: with sampling within the kernel (sim/cta_sampler.h).
  void start(Launch& launch, bool sample_ctas = false);
  bool finished(const Launch& launch, std::size_t running) const;
  // Launches the kernel sampler estimated warm the L2 when the next launch starts in
  // detail or a copy comes (warm_deferred): only the latest of them, at most
  // kMaxDeferredWarms and those whose global bytes (kernel_signature.h) after the
  // oldest kept reach less than twice the L2's size; an older one's lines would be gone.
  void defer_warm(std::unique_ptr<Launch> launch);
  void warm_deferred();
  static constexpr std::size_t kMaxDeferredWarms = 64;
  KernelResult finish(Launch& launch);
  void declare_wakes(const std::vector<Sm*>& sms);
  ProgressEvent progress_event(const Launch* current) const;  // current: null between kernels
  // Runs the engine until one of the running launches finishes; returns them.
  // Or, with a limit, until time reaches it (nothing finished then).
  void run_until_one_finishes(std::vector<std::unique_ptr<Launch>>& running,
                              std::vector<std::unique_ptr<Launch>>& finished_launches,
                              Picos limit = kNever);
  // Moves time to t with no kernel running: the memory system runs on while it holds
  // work (a collective's traffic on the hub, what it left in flight); idle, time jumps.
  void idle_until(Picos t);

  config::GpuConfig config_;
  Engine engine_;
  std::unique_ptr<memsys::MemorySystem> memory_;
  std::vector<std::unique_ptr<Sm>> sms_;
  std::unique_ptr<SmNetwork> network_;
  std::unique_ptr<CtaScheduler> cta_scheduler_;
  std::vector<ClockedUnit*> memory_units_;
  std::vector<ClockedUnit*> sm_units_;
  std::vector<ClockedUnit*> ports_;                  // by SM: the unit its memory port is, or null
  std::shared_ptr<const StatsSchema> stats_schema_;  // the counters of every unit above
  std::unique_ptr<KernelSummary> summary_;
  std::uint64_t launches_ = 0;  // launches prepared so far (KernelContext::launch_seq)
  ProgressCallback progress_;
  StopRequest stop_;
  bool stopped_ = false;
  std::uint64_t kernels_total_ = 0;
  std::uint64_t kernels_done_ = 0;
  std::vector<traces::sass::Listing> listings_;
  KernelSampler* sampler_ = nullptr;
  CollectivePort* port_ = nullptr;
  bool cta_sampling_ = false;
  bool sampling_warmup_ = true;
  std::deque<std::pair<std::unique_ptr<Launch>, double>> deferred_warms_;  // with global bytes
  double deferred_bytes_ = 0;
};

}  // namespace sassim::sim
