#include "sim/cpi_report.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "isa/opcode.h"
#include "sim/warp_state.h"

namespace sassim::sim {
namespace {

// Largest first, ties by name; entries under 0.05% of `total` dropped.
std::string shares(std::vector<std::pair<std::string_view, double>> parts, double total,
                   std::size_t top) {
  std::stable_sort(parts.begin(), parts.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (std::size_t i = 0; i < parts.size() && i < top; ++i) {
    const double share = total > 0 ? 100.0 * parts[i].second / total : 0.0;
    if (share < 0.05) break;
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {:.1f}%", parts[i].first, share);
  }
  return out.empty() ? std::string("-") : out;
}

}  // namespace

std::string cpi_stack_line(const KernelStats& stats, std::size_t top) {
  std::vector<std::pair<std::string_view, double>> parts;
  double total = 0;
  for (std::size_t k = 0; k < kNumWarpCycleStates; ++k) {
    const std::string_view name = warp_cycle_state_name(static_cast<WarpCycleState>(k));
    const double cycles = stats.sum("gpu.sm[", fmt::format(".warp_cycles.{}", name));
    parts.emplace_back(name, cycles);
    total += cycles;
  }
  return shares(std::move(parts), total, top);
}

std::string issue_utilisation_line(const KernelStats& stats, std::uint64_t issue_slots) {
  std::vector<std::pair<std::string_view, double>> parts;
  for (std::size_t u = 0; u < isa::kNumUnitClasses; ++u) {
    const std::string_view name = isa::unit_class_name(static_cast<isa::UnitClass>(u));
    parts.emplace_back(name, stats.sum("gpu.sm[", fmt::format(".insts.{}", name)));
  }
  return shares(std::move(parts), static_cast<double>(issue_slots), parts.size());
}

void print_cycle_breakdown(std::FILE* out, const std::vector<KernelResult>& results) {
  for (const KernelResult& r : results) {
    double warp_cycles = 0;
    for (std::size_t k = 0; k < kNumWarpCycleStates; ++k) {
      warp_cycles += r.stats.sum(
          "gpu.sm[",
          fmt::format(".warp_cycles.{}", warp_cycle_state_name(static_cast<WarpCycleState>(k))));
    }
    const double cpi = r.warp_insts == 0 ? 0.0 : warp_cycles / static_cast<double>(r.warp_insts);
    const double used = r.issue_slots == 0 ? 0.0
                                           : 100.0 * static_cast<double>(r.warp_insts) /
                                                 static_cast<double>(r.issue_slots);
    fmt::print(out, "kernel {}: {:.2f} warp cycles per warp instruction: {}\n", r.info.id, cpi,
               cpi_stack_line(r.stats, 6));
    fmt::print(out, "kernel {}: issue slots used {:.1f}%: {}\n", r.info.id, used,
               issue_utilisation_line(r.stats, r.issue_slots));
  }
}

}  // namespace sassim::sim
