#include "sim/workload_report.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "sim/energy_report.h"

namespace sassim::sim {
namespace {

// 5904 -> "5.8 KiB", 3145728 -> "3.00 MiB".
std::string bytes_text(double bytes) {
  if (bytes < 1024) return fmt::format("{:.0f} bytes", bytes);
  if (bytes < 1024.0 * 1024) return fmt::format("{:.1f} KiB", bytes / 1024);
  return fmt::format("{:.2f} MiB", bytes / (1024.0 * 1024));
}

}  // namespace

WorkloadFigures workload_figures(const traces::WorkloadInfo& info,
                                 const std::vector<KernelResult>& results) {
  WorkloadFigures f;
  std::uint64_t first = std::numeric_limits<std::uint64_t>::max(), last = 0;
  double seconds_per_cycle = 0, dram_bytes = 0;
  for (const KernelResult& r : results) {
    first = std::min(first, r.start_cycle);
    last = std::max(last, r.start_cycle + r.cycles);
    if (r.cycles != 0) seconds_per_cycle = r.seconds / static_cast<double>(r.cycles);
    dram_bytes += r.dram_bytes;
  }
  if (results.empty() || info.tokens == 0) return f;
  const double tokens = static_cast<double>(info.tokens);
  f.layer_seconds = static_cast<double>(last - first) * seconds_per_cycle;
  f.dram_bytes_per_token = dram_bytes / tokens;
  const RunEnergy e = run_energy(results);
  f.energy_j_per_token = e.modelled ? e.total_j / tokens : std::nan("");
  f.model_seconds = f.layer_seconds * static_cast<double>(info.model_layers);
  if (f.layer_seconds > 0) {
    f.layer_tokens_per_s = tokens / f.layer_seconds;
    f.model_tokens_per_s = tokens / f.model_seconds;
  }
  return f;
}

void print_workload_summary(std::FILE* out, const traces::WorkloadInfo& info,
                            const WorkloadFigures& f) {
  const bool prefill = info.phase == "prefill";
  fmt::print(out,
             "workload {} {}: batch {}, context {}: {} token{} in {:.1f} us ({:.0f} tokens/s)\n",
             info.workload, info.phase, info.batch, info.context, info.tokens,
             info.tokens == 1 ? "" : "s", f.layer_seconds * 1e6, f.layer_tokens_per_s);
  std::string energy;
  if (!std::isnan(f.energy_j_per_token)) {
    energy = fmt::format(", {:.3f} mJ", f.energy_j_per_token * 1e3);
  }
  fmt::print(out, "per token: {} of DRAM traffic{}\n", bytes_text(f.dram_bytes_per_token), energy);
  fmt::print(out,
             "{} such layers (the layers alone: no embedding, LM head or sampling): {:.3f} ms "
             "{}, {:.0f} tokens/s\n",
             info.model_layers, f.model_seconds * 1e3,
             prefill ? "to the first token" : "per decode step", f.model_tokens_per_s);
}

}  // namespace sassim::sim
