#pragma once
// Places the CTAs of the running kernels on SMs within their occupancy limits: each
// core cycle at most one new CTA per SM, visiting SMs round robin from where the last
// placement stopped (so a small grid spreads over the GPU as the hardware does), and
// taking CTAs from the earliest-started kernel that still has some and fits, so that
// concurrent kernels fill what the earlier ones leave free. CTAs are read from the
// trace only when they are placed.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "memsys/unit.h"
#include "sim/kernel_context.h"
#include "sim/sm.h"

namespace sassim::sim {

class CtaScheduler final : public ClockedUnit, public CtaRetireListener {
 public:
  // `dispatch_interval_cycles` > 0: at most one CTA per that many core cycles on the
  // whole GPU; 0: up to one per SM per cycle.
  CtaScheduler(std::vector<Sm*> sms, Clock core, std::uint32_t dispatch_interval_cycles = 0);

  // Starts placing the CTAs of a kernel. The kernel and context outlive it.
  void start_kernel(traces::KernelTrace& kernel, const KernelContext& context);
  // True when every CTA of the kernel was placed and has retired.
  bool kernel_done(const KernelContext& context) const;
  // Forgets a finished kernel.
  void remove_kernel(const KernelContext& context);
  std::uint64_t ctas_placed() const { return ctas_placed_; }

  void cta_retired(std::uint32_t sm_id, const KernelContext& kernel) override;

  bool tick(std::uint64_t cycle, Picos now) override;
  Picos next_event_ps() const override {
    if (!wake_) return kNever;
    return interval_ == 0 ? 0 : clock_.edge(next_dispatch_);
  }
  bool busy() const override { return !kernels_.empty(); }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override;
  void report(StatSink& sink) const override;

 private:
  struct Running {
    traces::KernelTrace* trace = nullptr;
    const KernelContext* context = nullptr;
    std::optional<traces::CtaTrace> next;  // read ahead; empty once all were read
    std::uint64_t in_flight = 0;
  };
  Running* find(const KernelContext& context);
  const Running* find(const KernelContext& context) const;
  void read_next(Running& k);
  bool any_waiting() const;

  std::string name_ = "gpu.cta_scheduler";
  std::vector<Sm*> sms_;
  Clock clock_;
  std::uint32_t interval_;
  std::uint64_t next_dispatch_ = 0;  // with an interval: the next cycle a CTA may be placed
  std::vector<std::unique_ptr<Running>> kernels_;  // in start order
  std::size_t round_robin_ = 0;
  std::uint64_t ctas_placed_ = 0;
  bool wake_ = false;
};

}  // namespace sassim::sim
