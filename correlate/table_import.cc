// A plain table of kernel names and cycles (hand-written, or AccelWattch's hw_perf.csv).
#include <array>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "correlate/importers.h"
#include "ground/error.h"

namespace sassim::correlate {
namespace {

constexpr std::array<std::string_view, 3> kNameColumns = {"kernel", "Kernel", "kernel_name"};
constexpr std::array<std::string_view, 3> kCycleColumns = {"cycles", "hw_cycles", "Elapsed_Cycles"};

template <std::size_t N>
std::optional<std::size_t> first_column(const CsvTable& table,
                                        const std::array<std::string_view, N>& names) {
  for (std::string_view name : names) {
    if (auto c = table.column(name)) return c;
  }
  return std::nullopt;
}

}  // namespace

HwMeasurements import_kernel_table(const TextLines& text, std::size_t header_index,
                                   const HwImportOptions& options) {
  const CsvTable table = read_csv_table(text, header_index);
  HwMeasurements out{text.file, "kernel-table", {}, {}};
  const auto name_col = first_column(table, kNameColumns);
  const auto cycles_col =
      options.metric.empty() ? first_column(table, kCycleColumns) : table.column(options.metric);
  if (!name_col || !cycles_col) {
    throw Error(fmt::format("{} expected a kernel-name column ({}) and a cycles column ({})",
                            at(text.file, table.header_line), fmt::join(kNameColumns, ", "),
                            options.metric.empty()
                                ? fmt::format("{}", fmt::join(kCycleColumns, ", "))
                                : options.metric));
  }
  for (const CsvRow& row : table.rows) {
    const auto cycles = read_number_field(table, row, *cycles_col);
    if (!cycles) {
      throw Error(fmt::format("{} column \"{}\": expected a number, found \"{}\"",
                              at(text.file, row.line), table.header[*cycles_col],
                              row.fields[*cycles_col]));
    }
    HwKernel kernel{
        row.fields[*name_col], *cycles, table.header[*cycles_col], text.file, row.line, ""};
    if (kernel.name.empty()) {
      throw Error(fmt::format("{} expected a kernel name in column \"{}\"", at(text.file, row.line),
                              table.header[*name_col]));
    }
    check_positive_cycles(kernel);
    out.kernels.push_back(std::move(kernel));
  }
  return out;
}

}  // namespace sassim::correlate
