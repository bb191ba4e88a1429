#pragma once
// Energy in the console summary of a run (sim/report.h): per kernel energy, average
// power, energy per FLOP and per DRAM byte and the largest components, then the run's.
#include <cstdio>
#include <vector>

#include "sim/kernel_result.h"

namespace sassim::sim {

// The run's energy: kernels' energies summed, power over their summed simulated time.
struct RunEnergy {
  bool modelled = false;  // some kernel's energy was modelled
  double total_j = 0;
  double seconds = 0;
  double avg_power_w = 0;
};
RunEnergy run_energy(const std::vector<KernelResult>& results);

// Nothing when no kernel's energy was modelled.
void print_energy_summary(std::FILE* out, const std::vector<KernelResult>& results);

}  // namespace sassim::sim
