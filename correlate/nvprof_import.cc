// nvprof CSV: per-launch metric/event rows (`--print-gpu-trace --metrics/--events`) and
// the plain GPU trace (`--print-gpu-trace`, durations only).
#include <fmt/format.h>

#include "correlate/device_sms.h"
#include "correlate/importers.h"
#include "correlate/ncu_metrics.h"
#include "ground/error.h"

namespace sassim::correlate {
namespace {

constexpr std::string_view kElapsedCyclesSm = "elapsed_cycles_sm";

std::uint32_t sm_count(const HwImportOptions& options, const std::string& device,
                       const std::string& file, std::size_t line) {
  if (options.num_sms) return *options.num_sms;
  if (auto sms = known_sm_count(device)) return *sms;
  throw Error(fmt::format(
      "{} {} is summed over the SMs and the SM count of device \"{}\" is not known; pass "
      "--num-sms",
      at(file, line), kElapsedCyclesSm, device));
}

}  // namespace

HwMeasurements import_nvprof_metrics(const TextLines& text, std::size_t header_index,
                                     const HwImportOptions& options) {
  const CsvTable table = read_csv_table(text, header_index);
  HwMeasurements out{text.file, "nvprof-metrics", {}, {}};
  if (!options.metric.empty() && options.metric != kElapsedCyclesSm) {
    throw Error(fmt::format("{} nvprof tables give cycles through {} only, not --hw-metric {}",
                            at(text.file, table.header_line), kElapsedCyclesSm, options.metric));
  }
  const std::size_t name_col = table.require_column("Kernel", "the kernel names");
  const std::size_t cycles_col = table.require_column(
      kElapsedCyclesSm, "the cycles (collect it with nvprof --metrics elapsed_cycles_sm)");
  const auto device_col = table.column("Device");
  const auto id_col = table.column("Correlation_ID");
  std::string last_device;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const CsvRow& row = table.rows[r];
    if (row.fields[name_col].empty()) {
      if (r == 0) continue;  // the units row
      throw Error(
          fmt::format("{} expected a kernel name in column \"Kernel\"", at(text.file, row.line)));
    }
    const auto summed = read_number_field(table, row, cycles_col);
    if (!summed) {
      throw Error(fmt::format("{} column \"{}\": expected a number, found \"{}\"",
                              at(text.file, row.line), kElapsedCyclesSm, row.fields[cycles_col]));
    }
    const std::string device = device_col ? row.fields[*device_col] : std::string();
    const std::uint32_t sms = sm_count(options, device, text.file, row.line);
    HwKernel kernel{row.fields[name_col],
                    *summed / sms,
                    fmt::format("{} / {} SMs", kElapsedCyclesSm, sms),
                    text.file,
                    row.line,
                    id_col ? "Correlation_ID " + row.fields[*id_col] : std::string()};
    check_positive_cycles(kernel);
    out.kernels.push_back(std::move(kernel));
    if (device != last_device) {
      out.notes.push_back(fmt::format("device: {} ({} SMs{})", device, sms,
                                      options.num_sms ? ", from --num-sms" : ""));
      last_device = device;
    }
  }
  return out;
}

HwMeasurements import_nvprof_trace(const TextLines& text, std::size_t header_index,
                                   const HwImportOptions& options) {
  const CsvTable table = read_csv_table(text, header_index);
  HwMeasurements out{text.file, "nvprof-trace", {}, {}};
  if (!options.metric.empty() && options.metric != "Duration") {
    throw Error(
        fmt::format("{} an nvprof GPU trace gives cycles through Duration only, not "
                    "--hw-metric {}",
                    at(text.file, table.header_line), options.metric));
  }
  const std::size_t name_col = table.require_column("Name", "the kernel names");
  const std::size_t duration_col = table.require_column("Duration", "the kernel durations");
  const std::size_t grid_col = table.require_column("Grid X", "telling kernels from copies");
  const auto id_col = table.column("Correlation_ID");
  if (!options.clock_mhz) {
    throw Error(
        fmt::format("{} an nvprof GPU trace gives durations, not cycles, and no clock; "
                    "pass --clock-mhz (or profile elapsed_cycles_sm with --metrics)",
                    at(text.file, table.header_line)));
  }
  std::string unit = "us";  // nvprof's default when no units row is printed
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const CsvRow& row = table.rows[r];
    if (r == 0 && row.fields[name_col].empty()) {
      unit = row.fields[duration_col];
      continue;
    }
    if (row.fields[grid_col].empty()) continue;  // a memcpy or memset, not a kernel
    const auto duration = read_number_field(table, row, duration_col);
    const auto ns = duration ? to_nanoseconds(*duration, unit) : std::nullopt;
    if (!ns) {
      throw Error(
          fmt::format("{} column \"Duration\": expected a time in s, ms, us or ns, "
                      "found \"{}\" {}",
                      at(text.file, row.line), row.fields[duration_col], unit));
    }
    HwKernel kernel{row.fields[name_col],
                    *ns * *options.clock_mhz / 1000.0,
                    fmt::format("Duration x {:g} MHz (--clock-mhz)", *options.clock_mhz),
                    text.file,
                    row.line,
                    id_col ? "Correlation_ID " + row.fields[*id_col] : std::string()};
    check_positive_cycles(kernel);
    out.kernels.push_back(std::move(kernel));
  }
  return out;
}

}  // namespace sassim::correlate
