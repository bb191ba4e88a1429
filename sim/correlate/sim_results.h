#pragma once
// Simulated kernel launches, read from `sassim run --out` results (HDF5, docs/RESULTS.md)
// or from one run of a sweep's merged table (sweep.csv: run_id, trace, kernel_id,
// kernel_name, <swept axes>, cycles, ...).
#include <optional>
#include <string>
#include <vector>

#include "sim/correlate/matcher.h"

namespace sassim::correlate {

struct SimRun {
  std::string file;
  std::string trace;        // the trace replayed
  std::string config_name;  // preset or config file
  std::optional<double> core_mhz;
  std::vector<SimKernel> kernels;  // in launch order
};

// Reads a results file; a name ending in .csv is read as a sweep table, from which the
// rows of `run_id` are taken (any run when the table holds only one). Throws
// sassim::Error naming the file and what was expected.
SimRun read_sim_results(const std::string& file, const std::string& run_id = "");

}  // namespace sassim::correlate
