#pragma once
// `sassim sweep`: load and check a spec, run what is not finished yet on a backend,
// and merge every finished run into one table (docs/SWEEPS.md).
#include <filesystem>
#include <optional>
#include <string>

namespace sassim::sweep {

struct SweepOptions {
  std::filesystem::path spec;
  std::optional<std::filesystem::path> out;  // replaces the spec's output folder
  std::string backend = "local";             // "local" or "slurm"
  unsigned jobs = 0;                         // local backend; 0: one per CPU
  unsigned threads_per_run = 1;              // host threads of each run (sassim run --threads)
  bool dry_run = false;                      // list the runs, do nothing else
  bool progress = true;                      // progress line when stderr is a terminal
  std::string exec_run;                      // run only this run id here (a Slurm task)
};

// Throws sassim::Error on a bad spec, on a finished run that no longer matches the
// spec, and when any run failed (after the others have run and the table is merged).
void run_sweep(const SweepOptions& options);

}  // namespace sassim::sweep
