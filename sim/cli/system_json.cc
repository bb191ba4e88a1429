#include "sim/cli/system_json.h"

#include <algorithm>

#include "multigpu/system_report.h"
#include "sim/cli/collective_json.h"
#include "sim/cli/output_format.h"
#include "traces/collective_line.h"

namespace sassim::cli {
namespace {

double us(Picos ps) {
  return static_cast<double>(ps) * 1e-6;
}

std::string array(const std::vector<Record>& records) {
  std::string out = "[";
  for (const Record& r : records) out += (out.size() > 1 ? ", " : "") + json_object(r);
  return out + "]";
}

}  // namespace

std::string system_json(const config::SystemConfig& system, const system::Topology& topology,
                        const multigpu::SystemResult& result,
                        const std::optional<traces::WorkloadInfo>& layer) {
  std::vector<Record> players, collectives;
  std::uint64_t ranks = 0;
  for (std::size_t p = 0; p < result.players.size(); ++p) {
    const multigpu::PlayerResult& r = result.players[p];
    const multigpu::RankTimes t = multigpu::rank_times(result, p);
    ranks += r.ranks.size();
    players.push_back({{"ranks", traces::format_ranks(r.ranks)},
                       {"trace", r.folder.filename().string()},
                       {"kernels", std::uint64_t{r.kernels.size()}},
                       {"kernels_us", us(t.kernels)},
                       {"collectives_us", us(t.collective)},
                       {"waiting_us", us(t.waiting)},
                       {"end_us", us(r.end)},
                       {"collective_read_bytes", r.collective_read_bytes},
                       {"collective_write_bytes", r.collective_write_bytes}});
  }
  for (const multigpu::CollectiveInstance& c : result.collectives) {
    const std::vector<double>& use = c.result.link_utilisation;
    collectives.push_back(
        {{"op", std::string(system::name_of(c.call.op))},
         {"type", std::string(system::name_of(c.call.type))},
         {"bytes", c.call.bytes},
         {"ranks", traces::format_ranks(c.call.ranks)},
         {"algorithm", std::string(system::name_of(c.result.algorithm))},
         {"protocol", std::string(system::name_of(c.result.protocol))},
         {"channels", std::uint64_t{c.result.channels}},
         {"start_us", c.resolved ? JsonText{json_number(us(c.start))} : JsonText{"null"}},
         {"time_us", static_cast<double>(c.result.time_ps) * 1e-6},
         {"busbw_gb_per_s", c.result.busbw_gb_per_s},
         {"max_link_use", use.empty() ? 0.0 : *std::max_element(use.begin(), use.end())},
         {"links", JsonText{links_json(topology, c.result)}},
         {"gpus", JsonText{gpu_sides_json(c.result)}}});
  }
  const double share = multigpu::interconnect_share(result);
  Record top{{"system", system.name()},
             {"gpu_preset", system.gpu_preset()},
             {"ranks", ranks},
             {"stopped", result.stopped},
             {"step_us", us(result.end)},
             {"interconnect_share", share},
             {"bound", std::string(share > 0.5 ? "interconnect" : "gpus")},
             {"players", JsonText{array(players)}},
             {"collectives", JsonText{array(collectives)}}};
  if (layer && !result.stopped) {
    const sim::WorkloadFigures f = multigpu::system_figures(*layer, result);
    top.emplace_back("workload",
                     JsonText{json_object({{"workload", layer->workload},
                                           {"phase", layer->phase},
                                           {"batch", layer->batch},
                                           {"context", layer->context},
                                           {"tokens", layer->tokens},
                                           {"layer_us", f.layer_seconds * 1e6},
                                           {"tokens_per_s", f.layer_tokens_per_s},
                                           {"model_layers", layer->model_layers},
                                           {"model_tokens_per_s", f.model_tokens_per_s},
                                           {"dram_bytes_per_token", f.dram_bytes_per_token}})});
  }
  return json_object(top);
}

}  // namespace sassim::cli
