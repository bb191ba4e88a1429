#include "sim/kernel_summary.h"

#include <fmt/format.h>

#include "configs/peaks.h"
#include "isa/opcode.h"

namespace sassim::sim {

KernelSummary::KernelSummary(const StatsSchema& schema, const config::GpuConfig& config)
    : l1_sector_accesses_(schema.matching("gpu.sm[", ".l1.sector_accesses")),
      l1_sector_hits_(schema.matching("gpu.sm[", ".l1.sector_hits")),
      l2_sector_accesses_(schema.matching("gpu.l2.slice[", ".sector_accesses")),
      l2_sector_hits_(schema.matching("gpu.l2.slice[", ".sector_hits")),
      dram_read_bytes_(schema.matching("gpu.dram.channel[", ".read_bytes")),
      dram_write_bytes_(schema.matching("gpu.dram.channel[", ".write_bytes")),
      tensor_busy_cycles_(schema.matching("gpu.sm[", ".tensor_busy_cycles")),
      tensor_flops_(schema.matching("gpu.sm[", ".flops.tensor")),
      config_(config),
      energy_counters_(schema),
      energy_model_(EnergyModel::of_config(config)),
      peaks_(config::gpu_peaks(config)),
      fp32_flops_(schema.matching("gpu.sm[", ".flops.fp32")),
      fp16_flops_(schema.matching("gpu.sm[", ".flops.fp16")),
      fp64_flops_(schema.matching("gpu.sm[", ".flops.fp64")),
      int_alu_insts_(schema.matching("gpu.sm[", ".insts.int_alu")),
      int_mad_insts_(schema.matching("gpu.sm[", ".insts.int_mad")),
      l1_data_path_bytes_(schema.matching("gpu.sm[", ".l1.data_path_bytes")),
      l2_data_bytes_(schema.matching("gpu.l2.slice[", ".data_bytes")) {
  for (std::size_t t = 1; t < config::kNumMmaTypes; ++t) {
    const std::string_view type = isa::mma_type_name(static_cast<isa::MmaType>(t));
    tensor_flops_by_type_[t] = schema.matching("gpu.sm[", fmt::format(".tensor_flops.{}", type));
  }
}

void KernelSummary::fill(const StatsSnapshot& change, KernelResult& r) const {
  const config::GpuConfig& config = config_;
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
  if (energy_model_) r.energy = energy_model_->compute(energy_counters_.gather(change), r.cycles);
  SolWork work;
  work.seconds = seconds;
  for (std::size_t t = 1; t < config::kNumMmaTypes; ++t) {
    work.tensor_flops[t] = change.sum(tensor_flops_by_type_[t]);
  }
  work.fp32_flops = change.sum(fp32_flops_);
  work.fp16_flops = change.sum(fp16_flops_);
  work.fp64_flops = change.sum(fp64_flops_);
  work.int_alu_insts = change.sum(int_alu_insts_);
  work.int_mad_insts = change.sum(int_mad_insts_);
  work.warp_insts = static_cast<double>(r.warp_insts);
  work.l1_bytes = change.sum(l1_data_path_bytes_);
  work.l2_bytes = change.sum(l2_data_bytes_);
  work.dram_bytes = r.dram_bytes;
  r.sol = speed_of_light(work, peaks_);
}

}  // namespace sassim::sim
