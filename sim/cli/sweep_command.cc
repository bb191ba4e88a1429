// `sassim sweep SPEC [--backend local|slurm] [--jobs N] [--threads-per-run N] [--dry-run]
// [--out DIR]`
#include <memory>
#include <string>

#include "sim/cli/commands.h"
#include "sweep/sweep.h"

namespace sassim::cli {

void add_sweep_command(CLI::App& app) {
  auto options = std::make_shared<sweep::SweepOptions>();
  auto spec = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto no_progress = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "sweep",
      "Run every config point of a sweep spec on its traces, locally or as a Slurm job array, "
      "and merge the results into one table (docs/SWEEPS.md)");
  cmd->add_option("spec", *spec, "sweep spec file (Protobuf text, configs/sweep_spec.proto)")
      ->required();
  cmd->add_option("-b,--backend", options->backend, "where runs execute")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->default_str("local");
  cmd->add_option("-j,--jobs", options->jobs,
                  "runs at once on the local backend (default: one per CPU)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threads-per-run", options->threads_per_run,
                  "host threads each run simulates on (default 1; results are the same for any "
                  "count; the slurm backend asks for as many CPUs per task)")
      ->check(CLI::Range(1u, 1024u));
  cmd->add_flag("-n,--dry-run", options->dry_run, "list the runs (id, trace, overrides) only");
  cmd->add_option("-o,--out", *out, "output folder (replaces the spec's `output`)");
  cmd->add_flag("--no-progress", *no_progress, "no progress line on a terminal");
  // What a Slurm array task runs: one run of the sweep, in this process's child.
  cmd->add_option("--exec-run", options->exec_run, "run only this run id (Slurm tasks)")->group("");
  cmd->callback([options, spec, out, no_progress] {
    options->spec = *spec;
    options->progress = !*no_progress;
    if (!out->empty()) options->out = *out;
    sweep::run_sweep(*options);
  });
}

}  // namespace sassim::cli
