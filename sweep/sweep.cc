#include "sweep/sweep.h"

#include <algorithm>
#include <fstream>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "ground/error.h"
#include "ground/file_seal.h"
#include "sweep/backends.h"
#include "sweep/durable_files.h"
#include "sweep/merge.h"
#include "sweep/results_reader.h"
#include "sweep/run_attempt.h"
#include "sweep/table_writer.h"

namespace sassim::sweep {

namespace fs = std::filesystem;

namespace {

void list_runs(const SweepPlan& plan) {
  fmt::print("{:>5}  {:12}  {}  {}\n", "run", "id", "trace", "overrides");
  for (const SweepRun& run : plan.runs) {
    std::string sets;
    for (const std::string& s : plan.points[run.point].overrides)
      sets += (sets.empty() ? "" : " ") + s;
    fmt::print("{:>5}  {}  {}  {}\n", run.index, run.id, plan.traces[run.trace].written,
               sets.empty() ? "(base config)" : sets);
  }
  fmt::print("{} runs ({} traces x {} config points); output folder {}\n", plan.runs.size(),
             plan.traces.size(), plan.points.size(), plan.output.string());
}

// Checks the finished runs against the plan, clears what a killed sweep left behind,
// and returns the runs still to do.
std::vector<const SweepRun*> prepare_output(const SweepPlan& plan, const SweepLayout& layout) {
  std::vector<std::string> mismatched;
  std::vector<const SweepRun*> todo;
  std::error_code ec;
  for (const SweepRun& run : plan.runs) {
    const auto marker = read_text_file(layout.marker(run.id));
    if (marker && *marker == run_record(plan, run)) {
      // Finished: kept unless its results were damaged since (the seal does not match)
      // or are another run's (moved or copied: their config is not this run's).
      const fs::path results = layout.run_dir(run.id) / kResultsName;
      try {
        if (read_results_config(results) == config::to_text(plan.points[run.point].config)) {
          continue;
        }
        fmt::print(stderr,
                   "sweep: {} holds results made with another config than this run's "
                   "(another run's results?); the run is redone\n",
                   results.string());
        fs::remove_all(layout.run_dir(run.id), ec);
        todo.push_back(&run);
        continue;
      } catch (const Error& e) {
        fmt::print(stderr, "sweep: {}; the run is redone\n", e.what());
        fs::remove_all(layout.run_dir(run.id), ec);
        todo.push_back(&run);
        continue;
      }
    }
    if (marker && marker->empty()) {
      // An empty marker (a crash between creating and writing it, or a person's doing)
      // records nothing: the run is redone.
      fmt::print(stderr, "sweep: {} is empty; the run is redone\n", layout.marker(run.id).string());
    } else if (marker) {
      mismatched.push_back(fmt::format("  {}: recorded\n{}  now\n{}",
                                       layout.run_dir(run.id).string(), *marker,
                                       run_record(plan, run)));
      continue;
    }
    // A run folder without a marker is no finished result (nothing of this program
    // leaves one, but a person might): it is redone.
    if (fs::exists(layout.run_dir(run.id), ec)) fs::remove_all(layout.run_dir(run.id), ec);
    todo.push_back(&run);
  }
  if (!mismatched.empty()) {
    std::string message = fmt::format(
        "{} finished runs in {} were made with other parameters than the spec now gives (the "
        "base config changed?); move them away or use another output folder:",
        mismatched.size(), layout.root.string());
    for (const std::string& m : mismatched) message += "\n" + m;
    throw Error(message);
  }
  remove_stale_temp_dirs(layout.tmp_dir());
  return todo;
}

void write_table(const SweepPlan& plan, const SweepLayout& layout) {
  const MergedTable merged = merge_results(plan, layout);
  write_table_hdf5(layout.table_h5(), merged.table, plan.spec_path.string());
  write_table_csv(layout.table_csv(), merged.table);
  fmt::print("sweep: merged {} of {} runs ({} rows, {} columns) into {} and {}\n", merged.runs,
             plan.runs.size(), merged.table.rows(), merged.table.columns.size(),
             layout.table_h5().string(), layout.table_csv().string());
}

}  // namespace

void run_sweep(const SweepOptions& options) {
  if (options.backend != "local" && options.backend != "slurm") {
    throw Error(fmt::format("unknown backend '{}' (local or slurm)", options.backend));
  }
  SweepPlan plan = load_sweep_plan(options.spec, options.out);
  plan.threads_per_run = options.threads_per_run;
  if (options.dry_run) {
    list_runs(plan);
    return;
  }
  const SweepLayout layout{plan.output};
  std::error_code ec;
  fs::create_directories(layout.root, ec);
  if (ec) {
    throw Error(
        fmt::format("cannot create output folder '{}': {}", layout.root.string(), ec.message()));
  }
  const std::string executable = self_executable();
  if (!options.exec_run.empty()) {
    if (!execute_one_run(plan, layout, options.exec_run, executable)) {
      throw Error(fmt::format("run {} failed", options.exec_run));
    }
    return;
  }
  // Created in place (never replaced), so every sweep locks the same file.
  std::ofstream(layout.lock_file(), std::ios::app).close();
  const std::optional<PathLock> lock = PathLock::try_lock(layout.lock_file());
  if (!lock) {
    throw Error(fmt::format("another sweep is working on {} (it holds {})", layout.root.string(),
                            layout.lock_file().string()));
  }
  const std::vector<const SweepRun*> todo = prepare_output(plan, layout);
  const unsigned jobs =
      options.jobs > 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  fmt::print("sweep: {} runs in {}: {} finished earlier, {} to run on the {} backend{}\n",
             plan.runs.size(), layout.root.string(), plan.runs.size() - todo.size(), todo.size(),
             options.backend,
             options.backend == "local" ? fmt::format(" ({} at a time)", jobs) : "");
  std::fflush(stdout);
  BackendResult result;
  {
    SweepProgress progress(options.progress);
    result = options.backend == "local" ? run_local(plan, layout, todo, executable, jobs, progress)
                                        : run_slurm(plan, layout, todo, executable, progress);
  }
  fmt::print("sweep: {} runs finished, {} failed\n", result.done, result.failed);
  write_table(plan, layout);
  if (result.failed > 0) {
    throw Error(
        fmt::format("{} of {} runs failed (listed above with their logs); rerun the "
                    "sweep to retry them",
                    result.failed, todo.size()));
  }
}

}  // namespace sassim::sweep
