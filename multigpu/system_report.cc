#include "multigpu/system_report.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sim/energy_report.h"
#include "traces/collective_line.h"

namespace sassim::multigpu {
namespace {

double us(Picos ps) {
  return static_cast<double>(ps) * 1e-6;
}

std::string folder_name(const SystemResult& result, std::size_t p) {
  return result.players[p].folder.filename().string();
}

// When the first of `ranks` in the collective's communicator arrived at it (the ranks of
// one player arrive together).
std::optional<Picos> arrival_of(const CollectiveInstance& c, const std::vector<uint32_t>& ranks) {
  for (std::size_t m = 0; m < c.call.ranks.size(); ++m) {
    if (std::find(ranks.begin(), ranks.end(), c.call.ranks[m]) != ranks.end()) return c.arrivals[m];
  }
  return std::nullopt;
}

std::size_t slowest_player(const SystemResult& result) {
  std::size_t slowest = 0;
  for (std::size_t p = 1; p < result.players.size(); ++p)
    if (result.players[p].end > result.players[slowest].end) slowest = p;
  return slowest;
}

}  // namespace

RankTimes rank_times(const SystemResult& result, std::size_t player) {
  RankTimes t;
  const PlayerResult& r = result.players[player];
  std::vector<std::pair<Picos, Picos>> spans;
  for (const sim::KernelResult& k : r.kernels)
    spans.emplace_back(k.start_cycle * result.core_period_ps,
                       (k.start_cycle + k.cycles) * result.core_period_ps);
  std::sort(spans.begin(), spans.end());
  Picos covered_to = 0;
  for (const auto& [begin, end] : spans) {
    const Picos from = std::max(begin, covered_to);
    if (end > from) t.kernels += end - from;
    covered_to = std::max(covered_to, end);
  }
  for (const CollectiveInstance& c : result.collectives) {
    const std::optional<Picos> arrived = c.resolved ? arrival_of(c, r.ranks) : std::nullopt;
    if (!arrived) continue;
    t.waiting += c.start - *arrived;
    t.collective += c.end - c.start;
  }
  return t;
}

double interconnect_share(const SystemResult& result) {
  if (result.players.empty() || result.end == 0) return 0;
  const RankTimes t = rank_times(result, slowest_player(result));
  return static_cast<double>(t.collective) / static_cast<double>(result.end);
}

sim::WorkloadFigures system_figures(const traces::WorkloadInfo& info, const SystemResult& result) {
  sim::WorkloadFigures f;
  Picos first = std::numeric_limits<Picos>::max();
  double dram_bytes = 0, energy_j = 0;
  bool modelled = true;
  for (const PlayerResult& p : result.players) {
    const double ranks = static_cast<double>(p.ranks.size());
    for (const sim::KernelResult& k : p.kernels) {
      first = std::min(first, k.start_cycle * result.core_period_ps);
      dram_bytes += k.dram_bytes * ranks;
    }
    const sim::RunEnergy e = sim::run_energy(p.kernels);
    modelled = modelled && e.modelled;
    energy_j += e.total_j * ranks;
  }
  if (info.tokens == 0 || result.end <= first) return f;
  const double tokens = static_cast<double>(info.tokens);
  f.layer_seconds = static_cast<double>(result.end - first) * 1e-12;
  f.dram_bytes_per_token = dram_bytes / tokens;
  f.energy_j_per_token = modelled ? energy_j / tokens : std::nan("");
  f.model_seconds = f.layer_seconds * static_cast<double>(info.model_layers);
  f.layer_tokens_per_s = tokens / f.layer_seconds;
  f.model_tokens_per_s = tokens / f.model_seconds;
  return f;
}

void print_system_summary(std::FILE* out, const config::SystemConfig& system,
                          const SystemResult& result,
                          const std::optional<traces::WorkloadInfo>& layer) {
  std::size_t ranks = 0;
  for (const PlayerResult& p : result.players) ranks += p.ranks.size();
  fmt::print(out, "system {}: {} ranks on {} GPUs ({}), {} distinct trace(s)\n", system.name(),
             ranks, system.nodes() * system.gpus_per_node(), system.gpu_preset(),
             result.players.size());
  fmt::print(out, "{:<10} {:<14} {:>7} {:>11} {:>11} {:>11} {:>10} {:>12} {:>12}\n", "ranks",
             "trace", "kernels", "kernels us", "collect. us", "waiting us", "end us",
             "coll. rd KiB", "coll. wr KiB");
  for (std::size_t p = 0; p < result.players.size(); ++p) {
    const RankTimes t = rank_times(result, p);
    const PlayerResult& r = result.players[p];
    fmt::print(out,
               "{:<10} {:<14} {:>7} {:>11.2f} {:>11.2f} {:>11.2f} {:>10.2f} {:>12.1f} {:>12.1f}\n",
               traces::format_ranks(r.ranks), folder_name(result, p), r.kernels.size(),
               us(t.kernels), us(t.collective), us(t.waiting), us(r.end),
               static_cast<double>(r.collective_read_bytes) / 1024.0,
               static_cast<double>(r.collective_write_bytes) / 1024.0);
  }
  if (!result.collectives.empty()) {
    fmt::print(out, "{:<32} {:<8} {:<6} {:<7} {:>4} {:>10} {:>9} {:>11} {:>9}\n", "collective",
               "ranks", "algo", "proto", "chan", "start us", "time us", "busbw GB/s", "max link");
  }
  for (const CollectiveInstance& c : result.collectives) {
    const std::vector<double>& use = c.result.link_utilisation;
    const double busiest = use.empty() ? 0 : *std::max_element(use.begin(), use.end());
    fmt::print(
        out, "{:<32} {:<8} {:<6} {:<7} {:>4} {:>10} {:>9.2f} {:>11.1f} {:>8.0f}%\n",
        describe(c.call), traces::format_ranks(c.call.ranks), system::name_of(c.result.algorithm),
        system::name_of(c.result.protocol), c.result.channels,
        c.resolved ? fmt::format("{:.2f}", us(c.start)) : std::string("-"),
        static_cast<double>(c.result.time_ps) * 1e-6, c.result.busbw_gb_per_s, busiest * 100);
  }
  const double share = interconnect_share(result);
  fmt::print(out, "step {:.2f} us: collectives {:.1f}% of the slowest rank's step; bound by {}\n",
             us(result.end), share * 100,
             share > 0.5 ? "the interconnect" : "the GPUs (their kernels)");
  if (layer && !result.stopped) {
    sim::print_workload_summary(out, *layer, system_figures(*layer, result));
  }
}

}  // namespace sassim::multigpu
