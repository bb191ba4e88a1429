#pragma once
// Runs one kernel with thread block clusters on a few SMs of testing::small_config()
// grouped into GPCs, each CTA one warp with its own hand-built instructions, and
// records every placement and every issue. The SMs' memory ports complete every
// access after one cycle, or are those of a memory system built from the config.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include "ground/engine.h"
#include "memsys/memory_system.h"
#include "sim/cta_scheduler.h"
#include "sim/exec_timing.h"
#include "sim_fixtures.h"

namespace sassim::sim::testing {

// CTAs in linear block order (x fastest); each CTA's one warp runs the static
// instructions program(cta id) returns (indices into statics()).
class ClusterKernel final : public traces::KernelTrace {
 public:
  static constexpr std::uint64_t kSharedBase = 0x7f0000000000;
  static constexpr std::uint64_t kSharedWindow = std::uint64_t{1} << 24;
  using Program = std::function<std::vector<std::uint32_t>(const traces::Dim3&)>;
  ClusterKernel(traces::Dim3 grid, traces::Dim3 cluster,
                std::uint64_t ctas_in_trace = ~std::uint64_t{0})
      : left_(std::min(ctas_in_trace, grid.count())) {
    info_.arch = isa::Arch::kSm90;
    info_.grid = grid;
    info_.cluster = cluster;
    info_.cluster_line = 14;
    info_.block = {32, 1, 1};
    info_.nregs = 32;
    info_.source = "cluster.traceg";
    info_.shmem_base = kSharedBase;
  }
  traces::StaticInstTable& table() { return statics_; }
  void set_program(Program program) { program_ = std::move(program); }
  // Memory instructions of CTA `id` address base(id) + 4 x lane (default 0x1000 + ...).
  void set_addresses(std::function<std::uint64_t(const traces::Dim3&)> base) {
    addresses_ = std::move(base);
  }
  const traces::KernelInfo& info() const override { return info_; }
  const traces::StaticInstTable& statics() const override { return statics_; }
  std::optional<traces::CtaTrace> next_cta() override {
    if (left_ == 0) return std::nullopt;
    --left_;
    const traces::Dim3& g = info_.grid;
    const traces::Dim3 id{static_cast<std::uint32_t>(read_ % g.x),
                          static_cast<std::uint32_t>(read_ / g.x % g.y),
                          static_cast<std::uint32_t>(read_ / g.x / g.y)};
    ++read_;
    traces::DecodedCta cta = make_decoded_cta(statics_, {program_(id)});
    cta.id = id;
    for (std::size_t i = 0; addresses_ && i < cta.addresses.size(); ++i) {
      cta.addresses[i] = addresses_(id) + 4 * (i % 32);
    }
    return traces::encode(cta);
  }
  std::uint64_t read() const { return read_; }

 private:
  traces::KernelInfo info_;
  traces::StaticInstTable statics_;
  Program program_;
  std::function<std::uint64_t(const traces::Dim3&)> addresses_;
  std::uint64_t left_, read_ = 0;
};

struct PlacementRecord {
  std::uint32_t sm;
  traces::Dim3 cta;
  std::uint64_t cluster_id;
  std::uint32_t rank;
  std::uint64_t cycle;
  friend bool operator==(const PlacementRecord&, const PlacementRecord&) = default;
};

inline void PrintTo(const PlacementRecord& r, std::ostream* os) {
  *os << "{sm " << r.sm << ", cta (" << r.cta.x << "," << r.cta.y << "," << r.cta.z << "), cluster "
      << r.cluster_id << " rank " << r.rank << ", cycle " << r.cycle << "}";
}

class PlacementRecorder final : public CtaPlacementObserver {
 public:
  void placed(std::uint32_t sm, const traces::Dim3& cta, const ClusterMembership& cluster,
              std::uint64_t cycle) override {
    records.push_back({sm, cta, cluster.cluster_id, cluster.rank, cycle});
  }
  std::vector<PlacementRecord> records;
};

class ClusterRig {
 public:
  static constexpr Picos kCycle = 1000;

  explicit ClusterRig(std::vector<std::uint32_t> gpc_sms) : gpc_sms_(std::move(gpc_sms)) {
    config_ = small_config();
    config_.set_arch("sm_90");
    std::uint32_t num_sms = 0;
    for (std::uint32_t n : gpc_sms_) num_sms += n;
    config_.set_num_sms(num_sms);
  }
  config::GpuConfig& config() { return config_; }
  // The SMs' accesses go through memsys::make_memory_system(config()) (which needs the
  // memory sections of the config) instead of fixed-latency ports.
  void use_memory_system() { memory_system_ = true; }
  // The engine ticks the SMs in descending SM number (results must not depend on it).
  void reverse_tick_order() { reversed_ = true; }

  // Runs the kernel to its end; returns the last cycle.
  std::uint64_t run(ClusterKernel& kernel) {
    timing_ = std::make_unique<ExecTiming>(config_.sm(), isa::Arch::kSm90, isa::Arch::kSm90);
    context_ = KernelContext{&kernel.info(),
                             &kernel.statics(),
                             timing_.get(),
                             {32, 1, 32 * 32, 0},
                             ClusterKernel::kSharedWindow,
                             0};
    Engine engine(Clock{kCycle}, Clock{kCycle}, Clock{kCycle}, 10000);
    std::vector<Sm*> raw;
    recorders.resize(config_.num_sms());
    if (memory_system_) {
      memory_ = memsys::make_memory_system(config_);
      for (const auto& [domain, unit] : memory_->units()) engine.add(domain, unit);
    }
    for (std::uint32_t i = 0; i < config_.num_sms(); ++i) {
      if (!memory_system_) ports_.push_back(std::make_unique<FixedLatencyPort>(kCycle));
      memsys::SmMemoryPort& port = memory_system_ ? memory_->port(i) : *ports_.back();
      sms.push_back(std::make_unique<Sm>(i, config_, port, Clock{kCycle}));
      sms.back()->set_issue_observer(&recorders[i]);
      sms.back()->set_warp_state_accounting(WarpStateAccounting::kChecked);
      raw.push_back(sms.back().get());
    }
    SmNetwork network(config_.num_sms(), config_.cluster().dsmem_latency_cycles());
    for (std::size_t i = 0; i < raw.size(); ++i) {
      Sm* sm = raw[reversed_ ? raw.size() - 1 - i : i];
      engine.add(ClockDomain::kCore, sm);
      sm->set_network(&network.outbox(sm->id()));
    }
    engine.add(ClockDomain::kCore, &network);
    scheduler_ = std::make_unique<CtaScheduler>(raw, Clock{kCycle});
    scheduler_->set_clusters(GpcLayout(gpc_sms_), config_.cluster().barrier_latency_cycles());
    scheduler_->set_placement_observer(&placements);
    engine.add(ClockDomain::kCore, scheduler_.get());
    scheduler_->start_kernel(kernel, context_);
    engine.run_until([&] { return scheduler_->kernel_done(context_); });
    return engine.cycle(ClockDomain::kCore);
  }

  std::vector<std::unique_ptr<Sm>> sms;
  std::vector<IssueRecorder> recorders;
  PlacementRecorder placements;

 private:
  std::vector<std::uint32_t> gpc_sms_;
  config::GpuConfig config_;
  std::unique_ptr<ExecTiming> timing_;
  KernelContext context_;
  std::vector<std::unique_ptr<FixedLatencyPort>> ports_;
  std::unique_ptr<memsys::MemorySystem> memory_;
  bool memory_system_ = false, reversed_ = false;
  std::unique_ptr<CtaScheduler> scheduler_;
};

}  // namespace sassim::sim::testing
