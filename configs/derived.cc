#include "configs/derived.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "configs/choices.h"
#include "ground/error.h"

namespace sassim::config {

double dram_peak_bytes_per_second(const GpuConfig& config) {
  const DramConfig& dram = config.dram();
  return static_cast<double>(dram.channels()) * (static_cast<double>(dram.bus_width_bits()) / 8.0) *
         dram.data_rate_mtps() * 1e6;
}

double dram_clock_mhz(const GpuConfig& config) {
  const DramType* type = find_dram_type(config.dram().type());
  if (type == nullptr) {
    throw Error(fmt::format("dram.type = \"{}\": no clock is known for this DRAM type",
                            config.dram().type()));
  }
  return config.dram().data_rate_mtps() / type->transfers_per_clock;
}

std::uint32_t l1_data_bytes(const GpuConfig& config) {
  return config.l1().unified_size_bytes() - config.l1().shared_memory_bytes();
}

std::uint32_t l2_hit_latency_cycles(const GpuConfig& config) {
  const std::uint32_t noc = std::max<std::uint32_t>(config.interconnect().latency_cycles(), 1);
  const double l2_cycles = 2.0 * noc + config.l2().hit_latency_cycles();
  const double core = config.clocks().core_mhz();
  const double l2 = config.clocks().l2_mhz();
  const double in_core = l2 > 0 && core > 0 ? l2_cycles * core / l2 : l2_cycles;
  return config.sm().units().memory().latency_cycles() + config.l1().hit_latency_cycles() +
         config.sm().load_to_memory_operand_cycles() +
         static_cast<std::uint32_t>(std::lround(in_core));
}

std::uint32_t l1_max_data_bytes(const GpuConfig& config) {
  std::uint32_t smallest = config.l1().shared_memory_bytes();
  for (std::uint32_t option : config.l1().shared_carveout_options_bytes()) {
    smallest = std::min(smallest, option);
  }
  return config.l1().unified_size_bytes() - smallest;
}

std::uint32_t shared_carveout_bytes(const GpuConfig& config, std::uint32_t resident_ctas,
                                    std::uint32_t shared_per_cta) {
  const std::uint64_t need = std::uint64_t{resident_ctas} * shared_per_cta;
  std::uint32_t best = config.l1().shared_memory_bytes();
  for (std::uint32_t option : config.l1().shared_carveout_options_bytes()) {
    if (option >= need && option < best) best = option;
  }
  return best;
}

std::uint64_t l2_slice_bytes(const GpuConfig& config) {
  return config.l2().size_bytes() / config.l2().slices();
}

std::string preset_for_binary_version(int binary_version) {
  // sm_60 (P100) has no preset of its own; GTX 1080 (sm_61) shares its SASS.
  static constexpr std::array<std::pair<int, std::string_view>, 8> kPresets = {{
      {60, "gtx1080"},
      {61, "gtx1080"},
      {70, "v100"},
      {75, "rtx2060"},
      {80, "a100"},
      {86, "rtx3070"},
      {89, "rtx4090"},
      {90, "h100"},
  }};
  std::string known;
  for (const auto& [version, preset] : kPresets) {
    if (version == binary_version) return std::string(preset);
    known += fmt::format("{}{}", known.empty() ? "" : ", ", version);
  }
  throw Error(fmt::format("no preset for binary version {} (known: {})", binary_version, known));
}

}  // namespace sassim::config
