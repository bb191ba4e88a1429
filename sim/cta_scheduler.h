#pragma once
// Places the running kernel's CTAs on SMs within their occupancy limits: each core
// cycle at most one new CTA per SM, visiting SMs round robin from where the last
// placement stopped (so a small grid spreads over the GPU as the hardware does).
// CTAs are read from the trace only when they are placed.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "memsys/unit.h"
#include "sim/kernel_context.h"
#include "sim/sm.h"

namespace sassim::sim {

class CtaScheduler final : public ClockedUnit, public CtaRetireListener {
 public:
  CtaScheduler(std::vector<Sm*> sms, Clock core);

  // Starts placing the CTAs of a kernel. The kernel and context outlive the run.
  void start_kernel(traces::KernelTrace& kernel, const KernelContext& context);
  // True when every CTA of the current kernel was placed and has retired.
  bool kernel_done() const { return kernel_ == nullptr && in_flight_ == 0; }
  std::uint64_t ctas_placed() const { return ctas_placed_; }

  void cta_retired(std::uint32_t sm_id) override;

  bool tick(std::uint64_t cycle, Picos now) override;
  Picos next_event_ps() const override { return wake_ ? 0 : kNever; }
  bool busy() const override { return !kernel_done(); }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override;
  void report(StatSink& sink) const override;

 private:
  void read_next();

  std::string name_ = "gpu.cta_scheduler";
  std::vector<Sm*> sms_;
  traces::KernelTrace* kernel_ = nullptr;
  const KernelContext* context_ = nullptr;
  std::optional<traces::CtaTrace> next_;
  std::size_t round_robin_ = 0;
  std::uint64_t in_flight_ = 0;
  std::uint64_t ctas_placed_ = 0;
  bool wake_ = false;
};

}  // namespace sassim::sim
