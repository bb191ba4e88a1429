#include "correlate/hw_import.h"

#include <algorithm>

#include <fmt/format.h>

#include "correlate/importers.h"
#include "ground/error.h"

namespace sassim::correlate {
namespace {

using Importer = HwMeasurements (*)(const TextLines&, std::size_t, const HwImportOptions&);

bool has(const std::vector<std::string>& fields, std::string_view name) {
  return std::find(fields.begin(), fields.end(), name) != fields.end();
}

const char* const kExpected =
    "expected an Nsight Compute CSV (`ncu --csv [--page raw]`: a header with \"ID\" and "
    "\"Kernel Name\"), an nvprof CSV (`nvprof --csv --print-gpu-trace [--metrics "
    "elapsed_cycles_sm]`: a header \"Device\",\"Context\",\"Stream\",\"Kernel\",... or "
    "\"Start\",\"Duration\",...), or a table with \"kernel\" and \"cycles\" columns";

// The importer for a header line, or nullptr when the line is no known header. Throws for
// headers of known formats that cannot give per-launch cycles.
Importer importer_for(const std::vector<std::string>& h, const std::string& file,
                      std::size_t line) {
  if (has(h, "Invocations") && (has(h, "Metric Name") || has(h, "Event Name"))) {
    throw Error(
        fmt::format("{} an nvprof summary, which averages over launches; rerun nvprof "
                    "with --print-gpu-trace to get one row per launch",
                    at(file, line)));
  }
  if (has(h, "Kernel Name") && has(h, "Metric Name") && has(h, "Metric Value")) {
    return import_ncu_long;
  }
  if (has(h, "Kernel Name") && has(h, "ID")) return import_ncu_raw;
  if (h.size() >= 4 && h[0] == "Device" && h[1] == "Context" && h[2] == "Stream" &&
      h[3] == "Kernel") {
    return import_nvprof_metrics;
  }
  if (has(h, "Start") && has(h, "Duration") && has(h, "Name")) return import_nvprof_trace;
  const bool name = has(h, "kernel") || has(h, "Kernel") || has(h, "kernel_name");
  const bool cycles = has(h, "cycles") || has(h, "hw_cycles") || has(h, "Elapsed_Cycles");
  if (name && cycles) return import_kernel_table;
  return nullptr;
}

std::string excerpt(const std::string& line) {
  constexpr std::size_t kMax = 80;
  return line.size() <= kMax ? line : line.substr(0, kMax) + "...";
}

}  // namespace

HwMeasurements import_hw_file(const std::string& file, const HwImportOptions& options) {
  const TextLines text = read_text_lines(file);
  bool chatter = false;        // the file starts like a profiler log
  bool nvprof_result = false;  // nvprof announced its result table
  std::size_t first_content = 0;
  for (std::size_t i = 0; i < text.lines.size(); ++i) {
    const std::string& line = text.lines[i];
    if (line.empty()) continue;
    if (is_tool_chatter(line)) {
      chatter = true;
      nvprof_result = line.find("Profiling result:") != std::string::npos;
      continue;
    }
    if (first_content == 0) first_content = i + 1;
    if (nvprof_result && line.front() != '"') {
      throw Error(fmt::format("{} nvprof's result table is not CSV; rerun nvprof with --csv",
                              at(file, i + 1)));
    }
    nvprof_result = false;
    if (auto fields = split_csv_line(line)) {
      if (Importer importer = importer_for(*fields, file, i + 1)) {
        HwMeasurements m = importer(text, i, options);
        if (m.kernels.empty()) {
          throw Error(
              fmt::format("{} a {} table with no kernel launch", at(file, i + 1), m.format));
        }
        return m;
      }
    }
    // A profiler log may carry the application's own output before its table.
    if (!chatter) break;
  }
  if (first_content == 0) throw Error(fmt::format("{}: no table in the file; {}", file, kExpected));
  throw Error(fmt::format("{} unknown hardware measurement format: {}; found \"{}\"",
                          at(file, first_content), kExpected,
                          excerpt(text.lines[first_content - 1])));
}

std::optional<double> read_number_field(const CsvTable& table, const CsvRow& row,
                                        std::size_t column) {
  const std::string& text = row.fields[column];
  if (text.empty() || text == "n/a" || text == "N/A") return std::nullopt;
  if (auto value = parse_number(text)) return value;
  throw Error(fmt::format("{} column \"{}\": expected a number, found \"{}\"",
                          at(table.file, row.line), table.header[column], text));
}

void check_positive_cycles(const HwKernel& kernel) {
  if (kernel.cycles > 0) return;
  throw Error(fmt::format("{} kernel \"{}\": {} gives {} cycles; expected a positive cycle count",
                          at(kernel.file, kernel.line), kernel.name, kernel.metric, kernel.cycles));
}

}  // namespace sassim::correlate
