#pragma once
// Simulated kernel launches, read from `sassim run --out` results (HDF5, docs/RESULTS.md)
// or from one config point of a sweep's merged table (sweep.csv: run_index, run_id,
// trace, <swept parameter paths>, kernel_id, kernel_name, ..., cycles, ..., counters).
#include <optional>
#include <string>
#include <vector>

#include "correlate/matcher.h"

namespace sassim::correlate {

struct SimRun {
  std::string file;
  std::string trace;        // the trace replayed
  std::string config_name;  // preset or config file
  std::optional<double> core_mhz;
  std::vector<SimKernel> kernels;  // in launch order
};

// Which rows of a sweep table to take: those of one run, and/or those whose swept
// parameters have the given values ("l2.hit_latency_cycles=100"). What remains must
// hold at most one run per trace (one config point).
struct SweepSelection {
  std::string run_id;
  std::vector<std::string> point;
};

// Reads a results file; a name ending in .csv is read as a sweep table. Throws
// sassim::Error naming the file and what was expected.
SimRun read_sim_results(const std::string& file, const SweepSelection& selection = {});

// The rows of a sweep table that `selection` picks (sweep_table.cc).
SimRun read_sweep_csv(const std::string& file, const SweepSelection& selection);

}  // namespace sassim::correlate
