#pragma once
// A sweep spec checked and expanded: every config point resolved and validated,
// every run (trace x point) with its stable id. Built before anything runs.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "configs/sweep_spec.pb.h"

namespace sassim::sweep {

struct SweepTrace {
  std::string written;         // as the spec writes it (normalized), recorded in results
  std::filesystem::path path;  // absolute, what `sassim run` is given
};

struct ConfigPoint {
  std::vector<std::string> overrides;  // "path=value", applied to the base in order
  config::GpuConfig config;            // the base with the overrides, validated
  std::string config_digest;           // hash of the fields the resolved config sets
};

struct SweepRun {
  std::size_t index = 0;  // position in the expansion: traces outer, points inner
  std::string id;         // stable: hash of trace, base config and overrides
  std::size_t trace = 0;  // into SweepPlan::traces
  std::size_t point = 0;  // into SweepPlan::points
};

struct SweepPlan {
  std::filesystem::path spec_path;  // absolute
  std::string base_config;          // as the spec writes it
  std::string base_config_arg;      // preset name or absolute path, for --config
  std::vector<SweepTrace> traces;
  std::vector<std::string> params;  // swept paths: the axes', then the points' others
  std::vector<ConfigPoint> points;
  std::vector<SweepRun> runs;
  std::filesystem::path output;  // absolute
  SlurmOptions slurm;
  // Host threads each run simulates on (sassim run --threads; not part of a run's
  // identity: results are the same for any count).
  unsigned threads_per_run = 1;
  std::string sample = "off";  // sassim run --sample of every run
};

// Reads, checks and expands a spec; `output` (the --out option), when given, replaces
// the spec's output folder. Throws sassim::Error listing every problem found, each
// with its file:line:column.
SweepPlan load_sweep_plan(const std::filesystem::path& spec,
                          const std::optional<std::filesystem::path>& output = std::nullopt);

// What a finished run records in its completion marker; a marker is reused only when
// it equals this text for the run now planned.
std::string run_record(const SweepPlan& plan, const SweepRun& run);

// 64-bit FNV-1a of `text` as 16 hex digits.
std::string hash_hex(std::string_view text);

}  // namespace sassim::sweep
