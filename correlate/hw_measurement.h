#pragma once
// Hardware measurements of kernel launches, as read from profiler output files.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sassim::correlate {

// One measured kernel launch.
struct HwKernel {
  std::string name;      // as the profiler printed it (mangled, demangled or base name)
  double cycles = 0;     // SM (core) clock cycles the launch took
  std::string metric;    // how `cycles` was obtained ("sm__elapsed_cycles_avg", ...)
  std::string file;      // the file it came from
  std::size_t line = 0;  // 1-based line of the launch's row (its first row in long formats)
  std::string launch;    // the profiler's launch id ("ID 0", "Correlation_ID 123"), may be empty
};

// What the importers need beyond the file itself.
struct HwImportOptions {
  // Core clock to convert durations to cycles; overrides any clock in the file.
  std::optional<double> clock_mhz;
  // SM count to turn nvprof's elapsed_cycles_sm (a sum over SMs) into cycles per SM;
  // overrides the count known for the file's device name.
  std::optional<std::uint32_t> num_sms;
  // Use exactly this metric (ncu metric name, nvprof metric or column name) instead of
  // the preference order; every launch must have it.
  std::string metric;
};

// One imported file.
struct HwMeasurements {
  std::string file;
  std::string format;              // "ncu-raw", "ncu-long", "nvprof-metrics", ...
  std::vector<HwKernel> kernels;   // in launch order
  std::vector<std::string> notes;  // facts worth showing (device, clock used, SM count)
};

}  // namespace sassim::correlate
