#pragma once
// The two ways a sweep executes its runs. Both take the runs still to do, leave each
// finished one in runs/<id> with its marker and each failed one in failed/<id>, report
// failures as they happen, and return the counts; a failed run stops no other.
#include <string>
#include <vector>

#include "sweep/sweep_layout.h"
#include "sweep/sweep_plan.h"
#include "sweep/sweep_progress.h"

namespace sassim::sweep {

struct BackendResult {
  std::size_t done = 0;
  std::size_t failed = 0;
};

// Up to `jobs` `sassim run` children at once on this machine.
BackendResult run_local(const SweepPlan& plan, const SweepLayout& layout,
                        const std::vector<const SweepRun*>& todo, const std::string& executable,
                        unsigned jobs, SweepProgress& progress);

// One Slurm job array (sbatch), followed with squeue until every task has ended.
BackendResult run_slurm(const SweepPlan& plan, const SweepLayout& layout,
                        const std::vector<const SweepRun*>& todo, const std::string& executable,
                        SweepProgress& progress);

// Runs one run of the plan in this process's child and waits for it (what a Slurm
// task does). Returns true when the run finished (now or before).
bool execute_one_run(const SweepPlan& plan, const SweepLayout& layout, const std::string& run_id,
                     const std::string& executable);

// "run 3 (id 0123abcd4567, trace t, set a=1 b=2)".
std::string describe_run(const SweepPlan& plan, const SweepRun& run);

}  // namespace sassim::sweep
