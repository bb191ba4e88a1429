#pragma once
// `sassim run --format json|csv`: the per-kernel results as one JSON document or a CSV
// table. A kernel's values are named and valued as the results file's /kernels columns
// (docs/RESULTS.md), so the two agree number for number.
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/cli/output_format.h"
#include "sim/kernel_result.h"
#include "sim/workload_report.h"

namespace sassim::cli {

// What the document says of the run besides its kernels.
struct RunHeader {
  std::string trace;
  std::string config_name;
  bool partial = false;  // stopped by a signal before its end
  // A `sassim workload` folder's description and its figures per token (whole runs only).
  std::optional<std::pair<traces::WorkloadInfo, sim::WorkloadFigures>> workload;
};

// One kernel as the /kernels row of the results file holds it.
Record kernel_record(const sim::KernelResult& r);

// {"trace": ..., "config_name": ..., "partial": ..., "kernels": [{...}, ...],
//  "total": {"kernels": N, "cycles": ..., ...}[, "workload": {"workload": ..., "phase": ...,
//  "tokens": ..., "layer_seconds": ..., "tokens_per_s": ..., ...}]}
void print_results_json(std::FILE* out, const RunHeader& header,
                        const std::vector<sim::KernelResult>& results);
// A header row of the /kernels column names, then one row per kernel.
void print_results_csv(std::FILE* out, const std::vector<sim::KernelResult>& results);

}  // namespace sassim::cli
