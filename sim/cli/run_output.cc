#include "sim/cli/run_output.h"

#include <cmath>

#include <fmt/format.h>

#include "sim/energy_report.h"
#include "sim/report.h"

namespace sassim::cli {

namespace {

// The columns before the energy and speed-of-light figures.
Record base_record(const sim::KernelResult& r) {
  return {{"id", std::uint64_t{r.info.id}},
          {"name", r.info.name},
          {"grid_x", std::uint64_t{r.info.grid.x}},
          {"grid_y", std::uint64_t{r.info.grid.y}},
          {"grid_z", std::uint64_t{r.info.grid.z}},
          {"block_x", std::uint64_t{r.info.block.x}},
          {"block_y", std::uint64_t{r.info.block.y}},
          {"block_z", std::uint64_t{r.info.block.z}},
          {"start_cycle", r.start_cycle},
          {"cycles", r.cycles},
          {"warp_instructions", r.warp_insts},
          {"ipc", r.ipc},
          {"l1_hit_rate", r.l1_hit_rate},
          {"l2_hit_rate", r.l2_hit_rate},
          {"dram_bytes", r.dram_bytes},
          {"dram_gbps", r.dram_gbps},
          {"tensor_utilisation", r.tensor_utilisation},
          {"tensor_tflops", r.tensor_tflops},
          {"host_seconds", r.host_seconds},
          {"sampled", std::uint64_t{r.sampled ? 1U : 0U}},
          {"simulated_warp_instructions", r.simulated_warp_insts},
          {"cycles_ci95_pct", r.cycles_ci95_pct}};
}

// Energy figures (null when the config has none: docs/RESULTS.md).
void append_energy(Record& record, const sim::KernelEnergy& e) {
  const auto value = [&e](double v) { return e.modelled ? v : std::nan(""); };
  record.emplace_back("energy_j", value(e.total_j));
  record.emplace_back("avg_power_w", value(e.avg_power_w));
  record.emplace_back("energy_per_flop_j", value(e.j_per_flop));
  record.emplace_back("energy_per_dram_byte_j", value(e.j_per_dram_byte));
}

// In JSON only, last: the energy split by component.
void append_energy_split(Record& record, const sim::KernelEnergy& e) {
  if (!e.modelled) return;
  Record split;
  for (std::size_t p = 0; p < sim::kNumEnergyParts; ++p) {
    split.emplace_back(std::string(sim::energy_part_name(static_cast<sim::EnergyPart>(p))),
                       e.joules[p]);
  }
  record.emplace_back("energy_split_j", JsonText{json_object(split)});
}

}  // namespace

Record kernel_record(const sim::KernelResult& r) {
  Record record = base_record(r);
  append_energy(record, r.energy);
  // Speed of light (sim/speed_of_light.h).
  record.emplace_back("bound_by", std::string(r.sol.bound_by_name()));
  for (sim::SolColumn& c : sim::sol_columns(r.sol)) record.emplace_back(std::move(c.name), c.value);
  append_energy_split(record, r.energy);
  return record;
}

void print_results_json(std::FILE* out, const RunHeader& header,
                        const std::vector<sim::KernelResult>& results) {
  fmt::print(out, "{{\n  \"trace\": {},\n  \"config_name\": {},\n  \"partial\": {},\n",
             json_quote(header.trace), json_quote(header.config_name),
             header.partial ? "true" : "false");
  fmt::print(out, "  \"kernels\": [");
  for (std::size_t i = 0; i < results.size(); ++i) {
    fmt::print(out, "{}\n    {}", i == 0 ? "" : ",", json_object(kernel_record(results[i])));
  }
  const sim::RunTotal t = sim::run_total(results);
  Record total = {{"kernels", std::uint64_t{t.kernels}}, {"cycles", t.cycles},
                  {"warp_instructions", t.warp_insts},   {"ipc", t.ipc},
                  {"l1_hit_rate", t.l1_hit_rate},        {"l2_hit_rate", t.l2_hit_rate},
                  {"dram_bytes", t.dram_bytes},          {"host_seconds", t.host_seconds}};
  if (const sim::RunEnergy e = sim::run_energy(results); e.modelled) {
    total.emplace_back("energy_j", e.total_j);
    total.emplace_back("avg_power_w", e.avg_power_w);
  }
  fmt::print(out, "{}],\n  \"total\": {}", results.empty() ? "" : "\n  ", json_object(total));
  if (header.workload) {
    const auto& [info, f] = *header.workload;
    const Record workload = {{"workload", info.workload},
                             {"phase", info.phase},
                             {"batch", info.batch},
                             {"context", info.context},
                             {"tokens", info.tokens},
                             {"model_layers", info.model_layers},
                             {"layer_seconds", f.layer_seconds},
                             {"layer_tokens_per_s", f.layer_tokens_per_s},
                             {"dram_bytes_per_token", f.dram_bytes_per_token},
                             {"energy_j_per_token", f.energy_j_per_token},
                             {"model_seconds", f.model_seconds},
                             {"model_tokens_per_s", f.model_tokens_per_s}};
    fmt::print(out, ",\n  \"workload\": {}", json_object(workload));
  }
  fmt::print(out, "\n}}\n");
}

void print_results_csv(std::FILE* out, const std::vector<sim::KernelResult>& results) {
  fmt::print(out, "{}\n", csv_header(kernel_record(sim::KernelResult{})));
  for (const sim::KernelResult& r : results) fmt::print(out, "{}\n", csv_row(kernel_record(r)));
}

}  // namespace sassim::cli
