#pragma once
// One table of every finished run of a sweep (docs/SWEEPS.md, "Merged table"): a row
// per run and kernel, in run order then launch order; columns run_index, run_id,
// trace, one per swept parameter, the run's /kernels columns (id and name renamed
// kernel_id and kernel_name) and one per counter of /stats, sorted by name. A counter
// a run does not have reads 0.
#include "sweep/sweep_layout.h"
#include "sweep/sweep_plan.h"
#include "sweep/table.h"

namespace sassim::sweep {

struct MergedTable {
  Table table;
  std::size_t runs = 0;  // finished runs in it
};

// Reads runs/<id>/results.h5 of every run whose marker matches the plan. Throws
// sassim::Error naming a results file that cannot be read.
MergedTable merge_results(const SweepPlan& plan, const SweepLayout& layout);

// True when the run's marker exists and records this very run.
bool run_finished(const SweepPlan& plan, const SweepLayout& layout, const SweepRun& run);

}  // namespace sassim::sweep
