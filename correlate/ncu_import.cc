// Nsight Compute CSV: the raw page (one row per launch) and the details/long format
// (one row per metric).
#include <map>

#include <fmt/format.h>

#include "correlate/importers.h"
#include "correlate/ncu_metrics.h"
#include "ground/error.h"

namespace sassim::correlate {
namespace {

std::string field_or_empty(const CsvRow& row, std::optional<std::size_t> column) {
  return column ? row.fields[*column] : std::string();
}

void note_device(HwMeasurements& out, const std::string& device) {
  if (!device.empty() && out.notes.empty()) out.notes.push_back("device: " + device);
}

}  // namespace

HwMeasurements import_ncu_raw(const TextLines& text, std::size_t header_index,
                              const HwImportOptions& options) {
  const CsvTable table = read_csv_table(text, header_index);
  HwMeasurements out{text.file, "ncu-raw", {}, {}};
  const std::size_t name_col = table.require_column("Kernel Name", "the kernel names");
  const auto id_col = table.column("ID");
  auto device_col = table.column("device__attribute_display_name");
  if (!device_col) device_col = table.column("Device Name");
  std::vector<std::string> units(table.header.size());
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const CsvRow& row = table.rows[r];
    // ncu prints the metrics' units in a row right under the header, with no ID or name.
    if (r == 0 && row.fields[name_col].empty() && field_or_empty(row, id_col).empty()) {
      units = row.fields;
      continue;
    }
    if (row.fields[name_col].empty()) {
      throw Error(fmt::format("{} expected a kernel name in column \"Kernel Name\"",
                              at(text.file, row.line)));
    }
    LaunchReadings readings;
    for (std::size_t c = 0; c < table.header.size(); ++c) {
      const std::string metric = canonical_ncu_metric(table.header[c]);
      if (!is_wanted_ncu_metric(metric, options)) continue;
      if (auto value = read_number_field(table, row, c)) {
        readings.emplace(metric, MetricReading{*value, units[c], row.line});
      }
    }
    const CycleValue cycles = ncu_launch_cycles(readings, options, text.file, row.line);
    HwKernel kernel{row.fields[name_col],
                    cycles.cycles,
                    cycles.metric,
                    text.file,
                    row.line,
                    id_col ? "ID " + row.fields[*id_col] : std::string()};
    check_positive_cycles(kernel);
    out.kernels.push_back(std::move(kernel));
    note_device(out, field_or_empty(row, device_col));
  }
  return out;
}

HwMeasurements import_ncu_long(const TextLines& text, std::size_t header_index,
                               const HwImportOptions& options) {
  const CsvTable table = read_csv_table(text, header_index);
  HwMeasurements out{text.file, "ncu-long", {}, {}};
  const std::size_t name_col = table.require_column("Kernel Name", "the kernel names");
  const std::size_t metric_col = table.require_column("Metric Name", "the metric names");
  const std::size_t value_col = table.require_column("Metric Value", "the metric values");
  const auto unit_col = table.column("Metric Unit");
  const auto id_col = table.column("ID");
  const auto device_col = table.column("Device");

  struct Launch {
    std::string id;
    std::string name;
    std::size_t line = 0;
    LaunchReadings readings;
  };
  std::vector<Launch> launches;
  std::map<std::string, std::size_t> by_id;
  for (const CsvRow& row : table.rows) {
    const std::string id = field_or_empty(row, id_col);
    const std::string& name = row.fields[name_col];
    std::size_t index = 0;
    if (id_col) {
      auto [it, inserted] = by_id.emplace(id, launches.size());
      if (inserted) launches.push_back({id, name, row.line, {}});
      index = it->second;
    } else {
      // Without IDs a launch ends where the kernel name changes or a metric repeats.
      const std::string metric = row.fields[metric_col];
      const bool repeat =
          !launches.empty() && launches.back().readings.contains(canonical_ncu_metric(metric));
      if (launches.empty() || launches.back().name != name || repeat) {
        launches.push_back({"", name, row.line, {}});
      }
      index = launches.size() - 1;
    }
    Launch& launch = launches[index];
    if (launch.name != name) {
      throw Error(fmt::format("{} launch ID {} is named \"{}\" here and \"{}\" on line {}",
                              at(text.file, row.line), id, name, launch.name, launch.line));
    }
    if (name.empty()) {
      throw Error(fmt::format("{} expected a kernel name in column \"Kernel Name\"",
                              at(text.file, row.line)));
    }
    note_device(out, field_or_empty(row, device_col));
    const std::string metric = canonical_ncu_metric(row.fields[metric_col]);
    if (!is_wanted_ncu_metric(metric, options) || launch.readings.contains(metric)) continue;
    if (auto value = read_number_field(table, row, value_col)) {
      launch.readings.emplace(metric,
                              MetricReading{*value, field_or_empty(row, unit_col), row.line});
    }
  }
  for (const Launch& launch : launches) {
    const CycleValue cycles = ncu_launch_cycles(launch.readings, options, text.file, launch.line);
    HwKernel kernel{launch.name,   cycles.cycles,
                    cycles.metric, text.file,
                    launch.line,   launch.id.empty() ? std::string() : "ID " + launch.id};
    check_positive_cycles(kernel);
    out.kernels.push_back(std::move(kernel));
  }
  return out;
}

}  // namespace sassim::correlate
