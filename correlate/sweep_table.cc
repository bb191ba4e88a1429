// One config point of a sweep's merged table (sweep.csv), as simulated kernels.
#include <algorithm>
#include <array>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "correlate/csv_table.h"
#include "correlate/sim_results.h"
#include "ground/error.h"

namespace sassim::correlate {
namespace {

// Columns that are not swept parameters: run identification and the /kernels table.
constexpr std::array<std::string_view, 29> kFixedColumns = {"run_index",
                                                            "run_id",
                                                            "trace",
                                                            "kernel_id",
                                                            "kernel_name",
                                                            "grid_x",
                                                            "grid_y",
                                                            "grid_z",
                                                            "block_x",
                                                            "block_y",
                                                            "block_z",
                                                            "start_cycle",
                                                            "cycles",
                                                            "warp_instructions",
                                                            "ipc",
                                                            "l1_hit_rate",
                                                            "l2_hit_rate",
                                                            "dram_bytes",
                                                            "dram_gbps",
                                                            "tensor_utilisation",
                                                            "tensor_tflops",
                                                            "host_seconds",
                                                            "sampled",
                                                            "simulated_warp_instructions",
                                                            "cycles_ci95_pct",
                                                            "energy_j",
                                                            "avg_power_w",
                                                            "energy_per_flop_j",
                                                            "energy_per_dram_byte_j"};

// The speed-of-light columns of /kernels (sim/speed_of_light.h), after kFixedColumns.
bool is_speed_of_light(const std::string& column) {
  return column == "bound_by" || column == "arithmetic_intensity" ||
         (column.starts_with("sol_") && column.ends_with("_pct"));
}

bool is_parameter(const std::string& column) {
  return std::find(kFixedColumns.begin(), kFixedColumns.end(), column) == kFixedColumns.end() &&
         !column.starts_with("gpu.") && !is_speed_of_light(column);
}

bool same_value(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const auto x = parse_number(a), y = parse_number(b);
  return x && y && *x == *y;
}

}  // namespace

SimRun read_sweep_csv(const std::string& file, const SweepSelection& selection) {
  const TextLines text = read_text_lines(file);
  if (text.lines.empty()) throw Error(fmt::format("{}: empty; expected a sweep table", file));
  const CsvTable table = read_csv_table(text, 0);
  const char* what = "reading a sweep table (run_id, trace, kernel_id, kernel_name, ..., cycles)";
  const std::size_t run_col = table.require_column("run_id", what);
  const std::size_t trace_col = table.require_column("trace", what);
  const std::size_t id_col = table.require_column("kernel_id", what);
  const std::size_t name_col = table.require_column("kernel_name", what);
  const std::size_t cycles_col = table.require_column("cycles", what);
  std::vector<std::string> parameters;
  for (const std::string& c : table.header) {
    if (is_parameter(c)) parameters.push_back(c);
  }

  // Filters: (column, value).
  std::vector<std::pair<std::size_t, std::string>> filters;
  if (!selection.run_id.empty()) filters.emplace_back(run_col, selection.run_id);
  for (const std::string& assignment : selection.point) {
    const auto eq = assignment.find('=');
    const std::string path = assignment.substr(0, eq);
    const auto column = table.column(path);
    if (eq == std::string::npos || !column || !is_parameter(path)) {
      throw Error(
          fmt::format("{}: --point {}: expected PATH=VALUE with PATH a swept parameter ({})", file,
                      assignment, fmt::join(parameters, ", ")));
    }
    filters.emplace_back(*column, assignment.substr(eq + 1));
  }
  std::vector<const CsvRow*> rows;
  std::map<std::string, std::set<std::string>> runs_of_trace;
  for (const CsvRow& row : table.rows) {
    bool keep = true;
    for (const auto& [column, value] : filters)
      keep = keep && same_value(row.fields[column], value);
    if (!keep) continue;
    rows.push_back(&row);
    runs_of_trace[row.fields[trace_col]].insert(row.fields[run_col]);
  }
  if (rows.empty()) {
    throw Error(fmt::format("{}: no row matches the selection (--run, --point)", file));
  }
  for (const auto& [trace, runs] : runs_of_trace) {
    if (runs.size() > 1) {
      throw Error(fmt::format(
          "{}: {} runs of trace {} remain ({}); choose one config point with --point PATH=VALUE "
          "(swept: {}) or a run with --run",
          file, runs.size(), trace, fmt::join(runs, ", "), fmt::join(parameters, ", ")));
    }
  }
  SimRun run{file, "", "", std::nullopt, {}};
  std::vector<std::string> point;
  for (const std::string& p : parameters) {
    point.push_back(p + "=" + rows.front()->fields[*table.column(p)]);
  }
  run.config_name = fmt::format(
      "sweep point {}", point.empty() ? "(base)" : fmt::format("{}", fmt::join(point, ", ")));
  std::set<std::string> traces;
  for (const CsvRow* row : rows) {
    const auto cycles = parse_number(row->fields[cycles_col]);
    const auto id = parse_number(row->fields[id_col]);
    if (!cycles || !id || *id < 0) {
      throw Error(
          fmt::format("{} expected numbers in kernel_id and cycles, found \"{}\" and \"{}\"",
                      at(file, row->line), row->fields[id_col], row->fields[cycles_col]));
    }
    traces.insert(row->fields[trace_col]);
    run.kernels.push_back({row->fields[name_col], static_cast<std::uint32_t>(*id), *cycles, file});
  }
  run.trace = fmt::format("{}", fmt::join(traces, ", "));
  return run;
}

}  // namespace sassim::correlate
