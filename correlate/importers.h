#pragma once
// The per-format importers behind import_hw_file (hw_import.h), each given the file's
// lines and the index of its header line. Each throws sassim::Error "FILE:LINE: ..."
// on a missing column, a malformed or non-positive value, or a missing conversion input.
#include <cstddef>

#include "correlate/csv_table.h"
#include "correlate/hw_measurement.h"

namespace sassim::correlate {

HwMeasurements import_ncu_raw(const TextLines& text, std::size_t header_index,
                              const HwImportOptions& options);
HwMeasurements import_ncu_long(const TextLines& text, std::size_t header_index,
                               const HwImportOptions& options);
HwMeasurements import_nvprof_metrics(const TextLines& text, std::size_t header_index,
                                     const HwImportOptions& options);
HwMeasurements import_nvprof_trace(const TextLines& text, std::size_t header_index,
                                   const HwImportOptions& options);
HwMeasurements import_kernel_table(const TextLines& text, std::size_t header_index,
                                   const HwImportOptions& options);

// Reads a numeric field; empty and "n/a" give nullopt, anything else that is not a
// number throws "FILE:LINE: column "NAME": expected a number, found "TEXT"".
std::optional<double> read_number_field(const CsvTable& table, const CsvRow& row,
                                        std::size_t column);

// Throws "FILE:LINE: ... expected a positive cycle count" unless cycles > 0.
void check_positive_cycles(const HwKernel& kernel);

}  // namespace sassim::correlate
