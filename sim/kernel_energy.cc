#include "sim/kernel_energy.h"

namespace sassim::sim {

std::string_view energy_part_name(EnergyPart part) {
  constexpr std::string_view kNames[kNumEnergyParts] = {
      "instructions", "tensor", "register_file", "l1",      "shared",     "l2",
      "interconnect", "dram",   "sm_static",     "sm_idle", "chip_static"};
  return kNames[static_cast<std::size_t>(part)];
}

double KernelEnergy::dynamic_j() const {
  double sum = 0;
  for (std::size_t p = 0; p < static_cast<std::size_t>(EnergyPart::kSmStatic); ++p) {
    sum += joules[p];
  }
  return sum;
}

KernelEnergy KernelEnergy::with_duration(double time_ratio) const {
  if (!modelled) return *this;
  KernelEnergy k = *this;
  const double seconds = avg_power_w > 0 ? total_j / avg_power_w : 0;
  k.total_j = 0;
  for (std::size_t p = 0; p < kNumEnergyParts; ++p) {
    if (p >= static_cast<std::size_t>(EnergyPart::kSmStatic)) k.joules[p] *= time_ratio;
    k.total_j += k.joules[p];
  }
  k.avg_power_w = seconds > 0 ? k.total_j / (seconds * time_ratio) : 0;
  const double ratio = total_j > 0 ? k.total_j / total_j : 0;
  k.j_per_flop = j_per_flop * ratio;
  k.j_per_dram_byte = j_per_dram_byte * ratio;
  return k;
}

}  // namespace sassim::sim
