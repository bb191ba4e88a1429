#pragma once
// The whole-GPU figures of a kernel's result (hit rates, DRAM traffic, tensor use),
// from the change of its counters; the counters each figure sums are found once per
// schema, not by name per kernel.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "configs/peaks.h"
#include "configs/sassim_config.pb.h"
#include "sim/energy_model.h"
#include "sim/kernel_result.h"
#include "sim/stats.h"

namespace sassim::sim {

class KernelSummary {
 public:
  // `config` (the GPU's, which outlives the summary) gives the energy model and the peaks
  // once, not per kernel.
  KernelSummary(const StatsSchema& schema, const config::GpuConfig& config);
  // Sets r's rates, DRAM bytes and GB/s, seconds and tensor figures from r.cycles and
  // `change`, r.stats from `change`, r.sol, and r.energy when the config has an energy
  // section.
  void fill(const StatsSnapshot& change, KernelResult& r) const;
  // Bytes read and written at the DRAM channels, of counters or of their change.
  double dram_bytes(const StatsSnapshot& s) const {
    return s.sum(dram_read_bytes_) + s.sum(dram_write_bytes_);
  }
  // Bytes of the L2's sector misses, reads and writes (what a miss allocates, but for
  // the rest of a read's fetch block).
  double l2_miss_bytes(const StatsSnapshot& s) const {
    return (s.sum(l2_sector_accesses_) - s.sum(l2_sector_hits_)) *
           static_cast<double>(config_.l2().sector_bytes());
  }

 private:
  std::vector<std::uint32_t> l1_sector_accesses_, l1_sector_hits_;
  std::vector<std::uint32_t> l2_sector_accesses_, l2_sector_hits_;
  std::vector<std::uint32_t> dram_read_bytes_, dram_write_bytes_;
  std::vector<std::uint32_t> tensor_busy_cycles_, tensor_flops_;
  const config::GpuConfig& config_;
  EnergyCounterIndex energy_counters_;
  std::unique_ptr<EnergyModel> energy_model_;  // null: no energy section
  config::GpuPeaks peaks_;
  // Speed of light (sim/speed_of_light.h): FLOPs by tensor operand type and kind,
  // integer-pipe instructions, bytes charged to the L1 and L2 data paths.
  std::array<std::vector<std::uint32_t>, config::kNumMmaTypes> tensor_flops_by_type_;
  std::vector<std::uint32_t> fp32_flops_, fp16_flops_, fp64_flops_;
  std::vector<std::uint32_t> int_alu_insts_, int_mad_insts_;
  std::vector<std::uint32_t> l1_data_path_bytes_, l2_data_bytes_;
};

}  // namespace sassim::sim
