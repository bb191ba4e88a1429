// check_energy(): the `energy` section's entries and combinations that the per-field
// ranges cannot state (the energy.dram_pj_per_bit map is not walked by the field check).
#include <string>

#include <fmt/format.h>

#include "configs/choices.h"
#include "configs/combination_checks.h"

namespace sassim::config {

void check_energy(const GpuConfig& config, std::vector<std::string>& problems) {
  if (!config.has_energy()) return;
  const EnergyConfig& e = config.energy();
  for (const auto& [type, pj] : e.dram_pj_per_bit()) {
    const std::string path = fmt::format("energy.dram_pj_per_bit[\"{}\"]", type);
    if (find_dram_type(type) == nullptr) {
      problems.push_back(
          fmt::format("{}: unknown memory type (one of dram.type's: HBM2, HBM2e, "
                      "HBM3, HBM3e, GDDR5, GDDR5X, GDDR6, GDDR6X)",
                      path));
    }
    if (!(pj >= 0 && pj <= 1000)) {
      problems.push_back(fmt::format("{} = {} is out of range [0, 1000] pJ/bit", path, pj));
    }
  }
  if (e.dram_pj_per_bit().count(config.dram().type()) == 0) {
    problems.push_back(fmt::format(
        "energy.dram_pj_per_bit has no entry for the memory type dram.type = \"{}\": add "
        "`dram_pj_per_bit {{ key: \"{}\" value: ... }}` to the energy section, or "
        "--set energy.dram_pj_per_bit.{}=PJ_PER_BIT",
        config.dram().type(), config.dram().type(), config.dram().type()));
  }
  if (e.min_voltage_v() > e.reference_voltage_v()) {
    problems.push_back(fmt::format(
        "energy.min_voltage_v = {} exceeds energy.reference_voltage_v = {}: the floor of "
        "the V-f relation must lie at or below the reference voltage",
        e.min_voltage_v(), e.reference_voltage_v()));
  }
  if (e.power_cap() && !e.has_board_power_limit_w()) {
    problems.push_back(
        "energy.power_cap = true needs energy.board_power_limit_w: the limit the cap holds");
  }
  if (e.power_cap() && e.power_cap_min_core_mhz() > config.clocks().core_mhz()) {
    problems.push_back(fmt::format(
        "energy.power_cap_min_core_mhz = {} exceeds clocks.core_mhz = {}: the cap lowers "
        "the SM clock from clocks.core_mhz down to that floor",
        e.power_cap_min_core_mhz(), config.clocks().core_mhz()));
  }
  if (e.sm_idle_w() > e.sm_active_static_w()) {
    problems.push_back(fmt::format(
        "energy.sm_idle_w = {} exceeds energy.sm_active_static_w = {}: a clock-gated SM "
        "draws no more than one holding work",
        e.sm_idle_w(), e.sm_active_static_w()));
  }
}

}  // namespace sassim::config
