#pragma once
// Where a sweep keeps its files under its output folder (docs/SWEEPS.md):
//   runs/<id>/     a finished run: config.txtpb, command.txt, log.txt, results.h5 and the
//                  completion marker COMPLETE; it appears whole (renamed from .tmp/)
//   failed/<id>/   the last failed attempt of a run, with exit_status.txt
//   .tmp/          runs in progress, each in a folder locked by the process running it
//   slurm/         job scripts, manifests and task logs of each submission
//   sweep.h5, sweep.csv   the merged table
//   .lock          locked by the sweep process working on the folder
#include <filesystem>
#include <string>

namespace sassim::sweep {

inline constexpr const char* kMarkerName = "COMPLETE";
inline constexpr const char* kResultsName = "results.h5";
inline constexpr const char* kLogName = "log.txt";
inline constexpr const char* kExitStatusName = "exit_status.txt";

struct SweepLayout {
  std::filesystem::path root;

  std::filesystem::path runs_dir() const { return root / "runs"; }
  std::filesystem::path run_dir(const std::string& id) const { return runs_dir() / id; }
  std::filesystem::path marker(const std::string& id) const { return run_dir(id) / kMarkerName; }
  std::filesystem::path failed_dir(const std::string& id) const { return root / "failed" / id; }
  std::filesystem::path tmp_dir() const { return root / ".tmp"; }
  std::filesystem::path slurm_dir() const { return root / "slurm"; }
  std::filesystem::path lock_file() const { return root / ".lock"; }
  std::filesystem::path table_h5() const { return root / "sweep.h5"; }
  std::filesystem::path table_csv() const { return root / "sweep.csv"; }
};

}  // namespace sassim::sweep
