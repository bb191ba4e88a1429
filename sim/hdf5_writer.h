#pragma once
// Writes a run's results to HDF5. Layout (docs/RESULTS.md):
//   /            attributes: sassim_version, trace, config_name
//   /config      scalar string: the resolved config in Protobuf text format
//   /kernels     table, one row per launch: id, name, grid_x..z, block_x..z,
//                start_cycle, cycles, warp_instructions, ipc, l1_hit_rate,
//                l2_hit_rate, dram_bytes, dram_gbps, tensor_utilisation,
//                tensor_tflops, host_seconds, sampled, simulated_warp_instructions,
//                cycles_ci95_pct, then the speed of light: bound_by, sol_<limit>_pct,
//                sol_tensor_<type>_pct, arithmetic_intensity (sim/speed_of_light.h)
//   /stats/names   every counter name (strings)
//   /stats/values  float64 [kernels x names]: each counter's change per kernel
//   /per_sm/<counter>  float64 [kernels x SMs] for each per-SM counter
//                      ("warp_insts", "l1.sector_hits", ...)
//   /peaks       table of the config's peak rates: name, value, unit (when RunInfo::peaks)
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/kernel_result.h"

namespace sassim::sim {

struct RunInfo {
  std::string trace;
  std::string config_name;
  std::string config_text;
  std::uint32_t num_sms = 0;
  bool partial = false;  // the run was stopped: the kernels finished before the stop
  // Kernel sampling ("off" or "kernels") and the 95% half-width of the total cycles as a
  // percentage of them (0 without sampling).
  std::string sampling = "off";
  double cycles_ci95_pct = 0;
  // The config's peak rates (configs/peaks.h), written as /peaks when set.
  std::optional<config::GpuPeaks> peaks;
};

// Throws sassim::Error when the file cannot be written.
void write_hdf5(const std::filesystem::path& file, const RunInfo& run,
                const std::vector<KernelResult>& results);

}  // namespace sassim::sim
