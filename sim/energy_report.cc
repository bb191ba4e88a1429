#include "sim/energy_report.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <string>

#include <fmt/format.h>

#include "ground/display_name.h"

namespace sassim::sim {
namespace {

// "tensor 61% dram 12% instructions 9%": the three largest parts.
std::string largest_parts(const KernelEnergy& e) {
  std::array<std::size_t, kNumEnergyParts> order{};
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&e](std::size_t a, std::size_t b) { return e.joules[a] > e.joules[b]; });
  std::string out;
  for (std::size_t k = 0; k < 3 && e.total_j > 0; ++k) {
    if (e.joules[order[k]] <= 0) break;
    out += fmt::format("{}{} {:.0f}%", out.empty() ? "" : " ",
                       energy_part_name(static_cast<EnergyPart>(order[k])),
                       100 * e.joules[order[k]] / e.total_j);
  }
  return out;
}

}  // namespace

RunEnergy run_energy(const std::vector<KernelResult>& results) {
  RunEnergy t;
  for (const KernelResult& r : results) {
    if (!r.energy.modelled) continue;
    t.modelled = true;
    t.total_j += r.energy.total_j;
    t.seconds += r.seconds;
  }
  t.avg_power_w = t.seconds > 0 ? t.total_j / t.seconds : 0;
  return t;
}

void print_energy_summary(std::FILE* out, const std::vector<KernelResult>& results) {
  const RunEnergy t = run_energy(results);
  if (!t.modelled) return;
  fmt::print(out, "{:>4}  {:<36} {:>11} {:>8} {:>9} {:>10}  {}\n", "id", "energy", "mJ", "W",
             "pJ/FLOP", "pJ/DRAM B", "largest parts");
  for (const KernelResult& r : results) {
    const KernelEnergy& e = r.energy;
    if (!e.modelled) continue;
    fmt::print(out, "{:>4}  {:<36} {:>11.4f} {:>8.1f} {:>9} {:>10}  {}\n", r.info.id,
               kernel_display_name(r.info.name, 36), e.total_j * 1e3, e.avg_power_w,
               e.j_per_flop > 0 ? fmt::format("{:.2f}", e.j_per_flop * 1e12) : "-",
               e.j_per_dram_byte > 0 ? fmt::format("{:.1f}", e.j_per_dram_byte * 1e12) : "-",
               largest_parts(e));
  }
  fmt::print(out, "{:>4}  {:<36} {:>11.4f} {:>8.1f}\n", "", "total", t.total_j * 1e3,
             t.avg_power_w);
}

}  // namespace sassim::sim
