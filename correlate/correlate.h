#pragma once
// `sassim correlate`: simulated kernels against hardware measurements.
//   correlate()      imports both sides, matches launches, computes the error metrics
//   write_outputs()  DIR/correlation.csv, summary.json, scatter.svg, error_histogram.svg,
//                    report.html (docs/CORRELATION.md)
#include <cstdio>
#include <string>
#include <vector>

#include "correlate/error_metrics.h"
#include "correlate/hw_measurement.h"
#include "correlate/matcher.h"
#include "correlate/sim_results.h"

namespace sassim::correlate {

struct CorrelateOptions {
  std::vector<std::string> sim_files;  // results.h5 (or a sweep.csv), concatenated in order
  std::vector<std::string> hw_files;   // measurement files, concatenated in order
  std::string metric = "cycles";       // what is compared; "cycles" is the one supported
  SweepSelection sweep;                // the rows of a sweep.csv to take
  HwImportOptions hw;
};

struct Correlation {
  std::string metric;
  std::vector<SimRun> sims;
  std::vector<HwMeasurements> hws;
  MatchResult match;
  ErrorSummary errors;  // over match.matched, in that order
};

// Throws sassim::Error on unreadable inputs, an unsupported metric, or when no kernel
// launch matched (the message lists the kernel names of both sides).
Correlation correlate(const CorrelateOptions& options);

// The five output files in `dir` (created when missing). Throws sassim::Error when a
// file cannot be written.
void write_outputs(const Correlation& c, const std::string& dir);

// The summary printed on the console.
void print_summary(std::FILE* out, const Correlation& c);

// Per-kernel helpers shared by the writers.
std::string display_name(const std::string& name);  // demangled, for people
double relative_error_percent(const MatchedKernel& m);

}  // namespace sassim::correlate
