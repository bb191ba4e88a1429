#include "sim/kernel_summary.h"

namespace sassim::sim {

KernelSummary::KernelSummary(const StatsSchema& schema)
    : l1_sector_accesses_(schema.matching("gpu.sm[", ".l1.sector_accesses")),
      l1_sector_hits_(schema.matching("gpu.sm[", ".l1.sector_hits")),
      l2_sector_accesses_(schema.matching("gpu.l2.slice[", ".sector_accesses")),
      l2_sector_hits_(schema.matching("gpu.l2.slice[", ".sector_hits")),
      dram_read_bytes_(schema.matching("gpu.dram.channel[", ".read_bytes")),
      dram_write_bytes_(schema.matching("gpu.dram.channel[", ".write_bytes")),
      tensor_busy_cycles_(schema.matching("gpu.sm[", ".tensor_busy_cycles")),
      tensor_flops_(schema.matching("gpu.sm[", ".flops.tensor")),
      energy_counters_(schema) {}

void KernelSummary::fill(const StatsSnapshot& change, const config::GpuConfig& config,
                         KernelResult& r) const {
  r.stats = KernelStats(change);
  r.issue_slots = r.cycles * config.num_sms() * config.sm().sub_cores();
  r.ipc = r.cycles == 0 ? 0.0 : static_cast<double>(r.warp_insts) / static_cast<double>(r.cycles);
  const double l1_accesses = change.sum(l1_sector_accesses_);
  const double l2_accesses = change.sum(l2_sector_accesses_);
  r.l1_hit_rate = l1_accesses == 0 ? 0.0 : change.sum(l1_sector_hits_) / l1_accesses;
  r.l2_hit_rate = l2_accesses == 0 ? 0.0 : change.sum(l2_sector_hits_) / l2_accesses;
  r.dram_bytes = dram_bytes(change);
  const double seconds = static_cast<double>(r.cycles) / (config.clocks().core_mhz() * 1e6);
  r.dram_gbps = seconds == 0 ? 0.0 : r.dram_bytes / seconds / 1e9;
  r.seconds = seconds;
  const double sub_core_cycles =
      static_cast<double>(r.cycles) * config.num_sms() * config.sm().sub_cores();
  r.tensor_utilisation =
      sub_core_cycles == 0 ? 0.0 : change.sum(tensor_busy_cycles_) / sub_core_cycles;
  r.tensor_tflops = seconds == 0 ? 0.0 : change.sum(tensor_flops_) / seconds / 1e12;
  if (config.has_energy()) {
    r.energy = EnergyModel(config).compute(energy_counters_.gather(change), r.cycles);
  }
}

}  // namespace sassim::sim
