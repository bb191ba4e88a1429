// The fixed latencies a unit may sit out without any unit making progress (each one
// wait, converted to core cycles), and simulation.deadlock_cycles above the longest.
// Waits on other units' work (queues, bandwidth) are not fixed and do not count; nor
// does simulation.kernel_launch_latency_cycles, which the GPU skips over as idle time.
#include "configs/deadlock_check.h"

#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "configs/reflection.h"

namespace sassim::config {

namespace {

class Waits {
 public:
  explicit Waits(const GpuConfig& config) : config_(config) {}

  // A wait of `cycles` core cycles set by `fields`.
  void core(double cycles, std::string fields) {
    if (cycles > best_.core_cycles) best_ = {cycles, std::move(fields)};
  }
  // In L2 (or crossbar) cycles.
  void l2(double cycles, std::string fields, bool on_core_clock = false) {
    if (on_core_clock) return core(cycles, std::move(fields));
    core(cycles * config_.clocks().core_mhz() / config_.clocks().l2_mhz(),
         fields + fmt::format(" (L2 cycles, clocks.l2_mhz = {})",
                              format_number(config_.clocks().l2_mhz())));
  }
  // In nanoseconds (plus `cycles` core cycles).
  void ns(double nanoseconds, std::string fields, double cycles = 0) {
    core(cycles + nanoseconds * config_.clocks().core_mhz() / 1000.0, std::move(fields));
  }
  const LongestWait& best() const { return best_; }

 private:
  const GpuConfig& config_;
  LongestWait best_;
};

std::string field(const std::string& path, double value) {
  return fmt::format("{} = {}", path, format_number(value));
}

void sm_waits(const SmConfig& sm, Waits& w) {
  w.core(sm.cta_launch_latency_cycles(),
         field("sm.cta_launch_latency_cycles", sm.cta_launch_latency_cycles()));
  w.ns(sm.grid_launch_ns(),
       field("sm.grid_launch_cycles", sm.grid_launch_cycles()) + " + " +
           field("sm.grid_launch_ns", sm.grid_launch_ns()),
       sm.grid_launch_cycles());
  w.core(sm.cta_dispatch_interval_cycles(),
         field("sm.cta_dispatch_interval_cycles", sm.cta_dispatch_interval_cycles()));
  w.core(sm.barrier_latency_cycles(),
         field("sm.barrier_latency_cycles", sm.barrier_latency_cycles()));
  w.core(sm.load_to_memory_operand_cycles(),
         field("sm.load_to_memory_operand_cycles", sm.load_to_memory_operand_cycles()));
  // Every functional unit class's latency (sm.units.<class>.latency_cycles).
  const auto& units = sm.units();
  const auto* descriptor = units.GetDescriptor();
  for (int i = 0; i < descriptor->field_count(); ++i) {
    const auto* unit_field = descriptor->field(i);
    const auto& unit =
        static_cast<const ExecUnitConfig&>(units.GetReflection()->GetMessage(units, unit_field));
    w.core(unit.latency_cycles(),
           field("sm.units." + unit_field->name() + ".latency_cycles", unit.latency_cycles()));
  }
  for (const auto& [mnemonic, cycles] : sm.opcode_latency_cycles()) {
    w.core(cycles, field("sm.opcode_latency_cycles." + mnemonic, cycles));
  }
  for (int i = 0; i < sm.tensor_ops_size(); ++i) {
    const TensorTiming& t = sm.tensor_ops(i);
    const std::string path = fmt::format("sm.tensor_ops[{}]", i);
    w.core(t.latency_cycles(), field(path + ".latency_cycles", t.latency_cycles()));
    // A warpgroup form of N columns (N up to 256).
    w.core(std::ceil(t.latency_cycles_per_n() * 256),
           field(path + ".latency_cycles_per_n", t.latency_cycles_per_n()) + " x 256 columns");
  }
  const FrontendConfig& f = sm.frontend();
  w.core(double{f.l1i_miss_latency_cycles()} + f.decode_latency_cycles(),
         field("sm.frontend.l1i_miss_latency_cycles", f.l1i_miss_latency_cycles()) + " + " +
             field("sm.frontend.decode_latency_cycles", f.decode_latency_cycles()));
  w.core(double{f.l1i_hit_latency_cycles()} + f.decode_latency_cycles(),
         field("sm.frontend.l1i_hit_latency_cycles", f.l1i_hit_latency_cycles()) + " + " +
             field("sm.frontend.decode_latency_cycles", f.decode_latency_cycles()));
  const ControlFlowConfig& c = sm.control_flow();
  w.core(c.branch_resolve_cycles(),
         field("sm.control_flow.branch_resolve_cycles", c.branch_resolve_cycles()));
  w.core(c.convergence_cycles(),
         field("sm.control_flow.convergence_cycles", c.convergence_cycles()));
  w.core(c.warpsync_cycles(), field("sm.control_flow.warpsync_cycles", c.warpsync_cycles()));
}

void memory_waits(const GpuConfig& config, Waits& w) {
  const L1Config& l1 = config.l1();
  w.core(l1.hit_latency_cycles(), field("l1.hit_latency_cycles", l1.hit_latency_cycles()));
  w.core(l1.shared_latency_cycles(), field("l1.shared_latency_cycles", l1.shared_latency_cycles()));
  const InterconnectConfig& noc = config.interconnect();
  w.l2(double{noc.latency_cycles()} + noc.far_partition_latency_cycles(),
       field("interconnect.latency_cycles", noc.latency_cycles()) + " + " +
           field("interconnect.far_partition_latency_cycles", noc.far_partition_latency_cycles()),
       noc.core_clock());
  w.l2(config.l2().hit_latency_cycles(),
       field("l2.hit_latency_cycles", config.l2().hit_latency_cycles()));
  // A request that reaches its bank as a refresh begins, behind another row: the refresh,
  // a precharge, an activation and the read, then the channel's latency.
  const DramConfig& d = config.dram();
  const bool per_bank = d.t_rfc_pb_ns() > 0;
  const double refresh = per_bank ? d.t_rfc_pb_ns() : d.t_rfc_ns();
  w.ns(d.latency_ns() + refresh + d.t_rp_ns() + d.t_rcd_ns() + d.t_cl_ns(),
       field("dram.latency_ns", d.latency_ns()) + " + " +
           field(per_bank ? "dram.t_rfc_pb_ns" : "dram.t_rfc_ns", refresh) + " + " +
           field("dram.t_rp_ns", d.t_rp_ns()) + " + " + field("dram.t_rcd_ns", d.t_rcd_ns()) +
           " + " + field("dram.t_cl_ns", d.t_cl_ns()));
  w.core(config.tma().setup_latency_cycles(),
         field("tma.setup_latency_cycles", config.tma().setup_latency_cycles()));
  const ClusterConfig& cluster = config.cluster();
  w.core(cluster.barrier_latency_cycles(),
         field("cluster.barrier_latency_cycles", cluster.barrier_latency_cycles()));
  w.core(cluster.dsmem_latency_cycles(),
         field("cluster.dsmem_latency_cycles", cluster.dsmem_latency_cycles()));
}

}  // namespace

LongestWait longest_fixed_wait(const GpuConfig& config) {
  Waits waits(config);
  sm_waits(config.sm(), waits);
  memory_waits(config, waits);
  return waits.best();
}

void check_deadlock_cycles(const GpuConfig& config, std::vector<std::string>& problems) {
  const LongestWait wait = longest_fixed_wait(config);
  const std::uint64_t minimum = static_cast<std::uint64_t>(std::floor(wait.core_cycles)) + 1;
  const std::uint64_t value = config.simulation().deadlock_cycles();
  if (value >= minimum) return;
  problems.push_back(fmt::format(
      "simulation.deadlock_cycles = {} is not above the longest fixed wait of the config, {} "
      "core cycles, set by {} (clocks.core_mhz = {}): expected at least {}",
      value, format_number(std::round(wait.core_cycles * 10) / 10), wait.fields,
      format_number(config.clocks().core_mhz()), minimum));
}

}  // namespace sassim::config
