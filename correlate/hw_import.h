#pragma once
// Reads a hardware measurement file in any supported format, detected from its
// content (docs/CORRELATION.md lists the formats and the metric each uses):
//   ncu-raw         Nsight Compute `--csv --page raw`: one row per launch, metric columns,
//                   optionally a units row under the header
//   ncu-long        Nsight Compute `--csv` (details page): "Metric Name"/"Metric Unit"/
//                   "Metric Value" rows, grouped into launches by "ID"
//   nvprof-metrics  nvprof `--csv --print-gpu-trace --metrics/--events ...`: "Device",
//                   "Context","Stream","Kernel",... one row per launch (elapsed_cycles_sm)
//   nvprof-trace    nvprof `--csv --print-gpu-trace`: "Start","Duration",... (duration x clock)
//   kernel-table    a plain CSV with a kernel-name column ("kernel", "Kernel", "name") and a
//                   cycles column ("cycles", "Elapsed_Cycles"), e.g. AccelWattch's hw_perf.csv
#include <string>

#include "correlate/hw_measurement.h"

namespace sassim::correlate {

// Throws sassim::Error naming the file, the line and what was expected when the file
// cannot be read, its format is not recognized, or a needed value is missing or malformed.
HwMeasurements import_hw_file(const std::string& file, const HwImportOptions& options);

}  // namespace sassim::correlate
