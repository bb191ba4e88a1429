#pragma once
// Places the CTAs of the running kernels on SMs within their occupancy limits: each
// core cycle at most one new CTA per SM, visiting SMs round robin from where the last
// placement stopped (so a small grid spreads over the GPU as the hardware does), and
// taking CTAs from the earliest-started kernel that still has some and fits, so that
// concurrent kernels fill what the earlier ones leave free. CTAs are read from the
// trace only when they are placed.
//
// SMs may be taken by something other than the kernels (a collective's CTAs,
// sim/gpu_collectives.h): no new CTA or cluster is placed on a taken SM until it is
// released; CTAs resident there run on.
//
// Kernels launched with thread block clusters (sm_90, KernelInfo::cluster) place whole
// clusters instead (sim/cluster_placement.cc): all CTAs of a cluster at once, in one
// cycle, on SMs of one GPC and only when all of them fit (several may share an SM);
// GPCs are tried round robin, each takes at most one cluster per cycle, and clusters
// are placed before single CTAs.
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ground/unit.h"
#include "sim/cluster_queue.h"
#include "sim/gpc_layout.h"
#include "sim/kernel_context.h"
#include "sim/sm.h"

namespace sassim::sim {

// Attached from outside (tests, debug tracing) to see every placement.
class CtaPlacementObserver {
 public:
  virtual ~CtaPlacementObserver() = default;
  virtual void placed(std::uint32_t sm, const traces::Dim3& cta, const ClusterMembership& cluster,
                      std::uint64_t cycle) = 0;
};

class CtaScheduler final : public ClockedUnit, public CtaRetireListener {
 public:
  // `dispatch_interval_cycles` > 0: at most one CTA per that many core cycles on the
  // whole GPU; 0: up to one per SM per cycle.
  CtaScheduler(std::vector<Sm*> sms, Clock core, std::uint32_t dispatch_interval_cycles = 0);

  // The GPCs clusters are placed on (default: one GPC of every SM) and the latency of
  // their barriers (sim/cluster_barrier.h).
  void set_clusters(GpcLayout layout, std::uint32_t barrier_latency_cycles);
  void set_placement_observer(CtaPlacementObserver* observer) { observer_ = observer; }
  // Starts placing the CTAs of a kernel, the first not before `not_before` (the grid's
  // launch time, SmConfig.grid_launch_*). The kernel and context outlive it.
  void start_kernel(traces::KernelTrace& kernel, const KernelContext& context,
                    Picos not_before = 0);
  // True when every CTA of the kernel was placed and has retired.
  bool kernel_done(const KernelContext& context) const;
  // Forgets a finished kernel.
  void remove_kernel(const KernelContext& context);
  std::uint64_t ctas_placed() const { return ctas_placed_; }

  // Takes `count` SMs not taken yet (fewer when fewer are left): the highest-numbered
  // SMs without a resident CTA first, then the highest-numbered others. Returns them.
  std::vector<std::uint32_t> take_sms(std::uint32_t count);
  // Gives taken SMs back to the kernels.
  void release_sms(const std::vector<std::uint32_t>& sms);
  bool taken(std::uint32_t sm) const { return taken_[sm] != 0; }

  // SMs ticking on different host threads may call this in the same step.
  void cta_retired(std::uint32_t sm_id, const KernelContext& kernel) override;

  bool tick(std::uint64_t cycle, Picos now) override;
  Picos next_event_ps() const override {
    const Picos launch = launching_.empty() ? kNever : launching_.front().ready;
    if (!wake_) return launch;
    return std::min(launch, interval_ == 0 ? Picos{0} : clock_.edge(next_dispatch_));
  }
  bool busy() const override { return !kernels_.empty() || !launching_.empty(); }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override;
  void report(StatSink& sink) const override;

 private:
  struct Running {
    traces::KernelTrace* trace = nullptr;
    const KernelContext* context = nullptr;
    std::optional<traces::CtaTrace> next;  // read ahead; empty once all were read
    std::uint64_t in_flight = 0;
    // Kernels with clusters: CTAs waiting for the rest of their cluster, and the next
    // whole cluster (read ahead; empty once all were read). `next` stays empty.
    std::unique_ptr<ClusterQueue> clusters;
    std::optional<ReadyCluster> next_cluster;
    bool waiting() const { return next.has_value() || next_cluster.has_value(); }
  };
  // A kernel whose CTAs may be placed from `ready` on.
  struct Launching {
    traces::KernelTrace* trace = nullptr;
    const KernelContext* context = nullptr;
    Picos ready = 0;
  };
  void begin_placing(traces::KernelTrace& kernel, const KernelContext& context);
  Running* find(const KernelContext& context);
  const Running* find(const KernelContext& context) const;
  void read_next(Running& k);
  std::optional<traces::CtaTrace> read_cta(Running& k);
  bool any_waiting() const;
  bool any_cta_waiting() const;
  // Cluster placement (sim/cluster_placement.cc): places the clusters that fit now;
  // true when it placed any.
  bool place_clusters(std::uint64_t cycle);
  // The SM of each CTA of the kernel's next cluster on GPC `gpc`; empty if they do not
  // all fit now.
  std::vector<std::uint32_t> fit_cluster(const Running& k, std::uint32_t gpc) const;
  void place_cluster(Running& k, std::uint32_t gpc, const std::vector<std::uint32_t>& sms,
                     std::uint64_t cycle);

  std::string name_ = "gpu.cta_scheduler";
  std::vector<Sm*> sms_;
  Clock clock_;
  std::uint32_t interval_;
  std::uint64_t next_dispatch_ = 0;  // with an interval: the next cycle a CTA may be placed
  std::vector<std::unique_ptr<Running>> kernels_;  // in start order
  std::vector<Launching> launching_;               // by ready time, then start order
  std::size_t round_robin_ = 0;
  std::uint64_t ctas_placed_ = 0;
  bool wake_ = false;
  std::mutex retire_mutex_;  // cta_retired() from SMs on several host threads
  CtaPlacementObserver* observer_ = nullptr;
  GpcLayout gpcs_;
  std::uint32_t cluster_barrier_latency_ = 1;
  std::uint32_t gpc_round_robin_ = 0;     // the GPC tried first for the next cluster
  std::vector<std::uint32_t> sm_in_gpc_;  // by GPC: the SM (index in it) tried first
  std::vector<char> taken_;               // by SM: taken by take_sms()
};

}  // namespace sassim::sim
