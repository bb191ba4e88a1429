// `sassim sweep` on the local backend, end to end: every run's folder and marker, the
// merged table against each run's results.h5, resuming, failures and refusals.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "configs/config_loader.h"
#include "merged_table.h"
#include "sweep/durable_files.h"
#include "sweep/results_reader.h"
#include "sweep/sweep_plan.h"
#include "sweep_test_support.h"

namespace sassim::sweep::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::map<std::string, FileStamp> marker_stamps(const SweepPlan& plan) {
  std::map<std::string, FileStamp> stamps;
  for (const SweepRun& run : plan.runs) {
    const fs::path dir = plan.output / "runs" / run.id;
    if (!fs::exists(dir / "COMPLETE")) continue;
    stamps[run.id + "/COMPLETE"] = stamp(dir / "COMPLETE");
    stamps[run.id + "/results.h5"] = stamp(dir / "results.h5");
  }
  return stamps;
}

TEST(LocalSweep, RunsEveryPointAndMergesEqualToEachRunsResults) {
  TempDir dir("local");
  const fs::path out = dir.path() / "out";
  const Captured ran = sassim({"sweep", sweep_data("small.txtpb"), "--out", out, "--jobs", "2"});
  ASSERT_EQ(ran.exit_status, 0) << ran.out << ran.err;
  const SweepPlan plan = load_sweep_plan(sweep_data("small.txtpb"), out);
  ASSERT_EQ(plan.runs.size(), 10u);
  for (const SweepRun& run : plan.runs) {
    const fs::path run_dir = out / "runs" / run.id;
    EXPECT_EQ(read_file(run_dir / "COMPLETE"), run_record(plan, run));
    EXPECT_EQ(read_file(run_dir / "config.txtpb"), config::to_text(plan.points[run.point].config));
    EXPECT_THAT(read_file(run_dir / "command.txt"),
                HasSubstr(fmt::format(" run {} --config gtx1080 --set {} ",
                                      plan.traces[run.trace].path.string(),
                                      plan.points[run.point].overrides.at(0))));
    EXPECT_THAT(read_file(run_dir / "log.txt"), HasSubstr("results written to results.h5"));
    EXPECT_TRUE(results_file_complete(run_dir / "results.h5")) << run.id;
  }
  EXPECT_EQ(finished_ids(out).size(), 10u);
  EXPECT_TRUE(fs::is_empty(out / ".tmp"));
  EXPECT_FALSE(fs::exists(out / "failed"));

  MergedFile merged(out / "sweep.h5");
  const std::vector<std::string> columns = merged.columns();
  const std::vector<std::string> leading = {
      "run_index",           "run_id",      "trace",
      "sm.scheduler.policy", "num_sms",     "sm.units.fp32.latency_cycles",
      "kernel_id",           "kernel_name", "grid_x"};
  ASSERT_GT(columns.size(), leading.size());
  EXPECT_EQ(std::vector<std::string>(columns.begin(), columns.begin() + 9), leading);
  // The /kernels columns end with the speed-of-light figures (docs/RESULTS.md).
  const auto first_stat = std::find(columns.begin(), columns.end(), "arithmetic_intensity") + 1;
  ASSERT_NE(first_stat, columns.end());
  EXPECT_TRUE(std::is_sorted(first_stat, columns.end()));
  EXPECT_EQ(*first_stat, "gpu.cta_scheduler.ctas_placed");
  EXPECT_EQ(merged.type_class("num_sms"), H5T_INTEGER);
  EXPECT_EQ(merged.type_class("sm.scheduler.policy"), H5T_STRING);

  // One row per run (each trace has one kernel), in run order, equal to its results.h5.
  const auto run_ids = merged.text("run_id");
  const auto cycles = merged.unsigneds("cycles");
  const auto ipc = merged.doubles("ipc");
  const auto num_sms = merged.unsigneds("num_sms");
  const auto latency = merged.unsigneds("sm.units.fp32.latency_cycles");
  const auto names = merged.text("kernel_name");
  const auto traces = merged.text("trace");
  ASSERT_EQ(run_ids.size(), 10u);
  std::vector<RunResults> results;
  std::set<std::uint64_t> distinct_cycles;
  for (std::size_t row = 0; row < run_ids.size(); ++row) {
    const SweepRun& run = plan.runs[row];
    const ConfigPoint& point = plan.points[run.point];
    EXPECT_EQ(run_ids[row], run.id);
    EXPECT_EQ(traces[row], plan.traces[run.trace].written);
    EXPECT_EQ(num_sms[row], point.config.num_sms());
    EXPECT_EQ(latency[row], point.config.sm().units().fp32().latency_cycles());
    results.push_back(read_run_results(out / "runs" / run.id / "results.h5"));
    const RunResults& r = results.back();
    ASSERT_EQ(r.kernel_count, 1u);
    EXPECT_EQ(r.kernels[9].name, "cycles");
    EXPECT_EQ(cycles[row], std::get<std::vector<std::uint64_t>>(r.kernels[9].values)[0]);
    EXPECT_EQ(ipc[row], std::get<std::vector<double>>(r.kernels[11].values)[0]);
    EXPECT_EQ(names[row], std::get<std::vector<std::string>>(r.kernels[1].values)[0]);
    distinct_cycles.insert(cycles[row]);
  }
  EXPECT_GT(distinct_cycles.size(), 4u);  // the points differ in their results
  // Every counter column: the run's value, or 0 where the run has no such counter.
  std::size_t absent = 0;
  for (auto column = first_stat; column != columns.end(); ++column) {
    const std::vector<double> values = merged.doubles(*column);
    for (std::size_t row = 0; row < results.size(); ++row) {
      const RunResults& r = results[row];
      const auto at = std::find(r.stat_names.begin(), r.stat_names.end(), *column);
      if (at == r.stat_names.end()) {
        ++absent;
        EXPECT_EQ(values[row], 0.0) << *column << " row " << row;
      } else {
        EXPECT_EQ(values[row], r.stat_values[static_cast<std::size_t>(at - r.stat_names.begin())])
            << *column << " row " << row;
      }
    }
  }
  EXPECT_GT(absent, 0u);  // the 1- and 2-SM runs lack the counters of SMs 2..19

  // The CSV holds the same table.
  const auto csv = read_csv(out / "sweep.csv");
  ASSERT_EQ(csv.size(), 11u);
  EXPECT_EQ(csv[0], columns);
  for (std::size_t row = 0; row < 10; ++row) {
    EXPECT_EQ(csv[row + 1][1], run_ids[row]);
    EXPECT_EQ(csv[row + 1][15], std::to_string(cycles[row]));
    EXPECT_EQ(csv[row + 1][3], row % 5 < 2 || row % 5 == 4 ? "gto" : "lrr");
    EXPECT_EQ(std::stod(csv[row + 1][17]), ipc[row]);
  }
}

TEST(LocalSweep, RerunSkipsFinishedRunsAndRedoesIncompleteOnes) {
  TempDir dir("rerun");
  const fs::path out = dir.path() / "out";
  ASSERT_EQ(sassim({"sweep", sweep_data("small.txtpb"), "--out", out, "-j", "2"}).exit_status, 0);
  const SweepPlan plan = load_sweep_plan(sweep_data("small.txtpb"), out);
  std::map<std::string, FileStamp> before = marker_stamps(plan);
  const auto csv = read_csv(out / "sweep.csv");

  // A run folder without its marker (a person's doing) and a stale temp folder.
  const std::string broken = plan.runs[3].id;
  fs::remove(out / "runs" / broken / "COMPLETE");
  fs::create_directories(out / ".tmp" / (broken + ".dead"));
  const Captured r = sassim({"sweep", sweep_data("small.txtpb"), "--out", out, "-j", "2"});
  ASSERT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("9 finished earlier, 1 to run"));
  std::map<std::string, FileStamp> after = marker_stamps(plan);
  ASSERT_EQ(after.size(), 20u);
  for (const auto& [file, s] : before) {
    if (file.rfind(broken, 0) == 0) {
      EXPECT_NE(after[file], s) << file;
    } else {
      EXPECT_EQ(after[file], s) << file;
    }
  }
  EXPECT_TRUE(fs::is_empty(out / ".tmp"));
  const auto csv_after = read_csv(out / "sweep.csv");
  ASSERT_EQ(csv_after.size(), csv.size());
  EXPECT_EQ(csv_after[0], csv[0]);
  for (std::size_t row = 1; row < csv.size(); ++row) EXPECT_EQ(csv_after[row][1], csv[row][1]);

  const Captured again = sassim({"sweep", sweep_data("small.txtpb"), "--out", out});
  EXPECT_THAT(again.out, HasSubstr("10 finished earlier, 0 to run"));
  EXPECT_EQ(marker_stamps(plan), after);
}

TEST(LocalSweep, FinishedRunWithDamagedResultsIsRedoneWithAMessage) {
  TempDir dir("damaged");
  const fs::path out = dir.path() / "out";
  ASSERT_EQ(sassim({"sweep", sweep_data("small.txtpb"), "--out", out, "-j", "2"}).exit_status, 0);
  const SweepPlan plan = load_sweep_plan(sweep_data("small.txtpb"), out);
  const auto csv = read_csv(out / "sweep.csv");
  std::map<std::string, FileStamp> before = marker_stamps(plan);

  // One bit of a finished run's results flipped, another's results cut short.
  const fs::path flipped = out / "runs" / plan.runs[2].id / "results.h5";
  {
    std::fstream f(flipped, std::ios::binary | std::ios::in | std::ios::out);
    f.seekg(6115);
    const char c = static_cast<char>(f.get());
    f.seekp(6115);
    f.put(static_cast<char>(c ^ 1));
  }
  const fs::path cut = out / "runs" / plan.runs[5].id / "results.h5";
  fs::resize_file(cut, 4096);
  const Captured r = sassim({"sweep", sweep_data("small.txtpb"), "--out", out, "-j", "2"});
  ASSERT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr(fmt::format("sweep: {}: damaged: CRC-32 ", flipped.string())));
  EXPECT_THAT(r.err, HasSubstr(fmt::format("sweep: {}: truncated or damaged: 3584 bytes after "
                                           "the seal",
                                           cut.string())));
  EXPECT_THAT(r.err, HasSubstr("; the run is redone"));
  EXPECT_THAT(r.out, HasSubstr("8 finished earlier, 2 to run"));
  const std::map<std::string, FileStamp> after = marker_stamps(plan);
  ASSERT_EQ(after.size(), 20u);
  for (const auto& [file, s] : before) {
    const bool redone = file.rfind(plan.runs[2].id, 0) == 0 || file.rfind(plan.runs[5].id, 0) == 0;
    if (redone) {
      EXPECT_NE(after.at(file), s) << file;
    } else {
      EXPECT_EQ(after.at(file), s) << file;
    }
  }
  const auto csv_after = read_csv(out / "sweep.csv");
  ASSERT_EQ(csv_after.size(), csv.size());
  for (std::size_t row = 1; row < csv.size(); ++row) EXPECT_EQ(csv_after[row][1], csv[row][1]);
}

TEST(LocalSweep, SwappedResultsAndAnEmptyMarkerAreRedoneWithAMessage) {
  TempDir dir("swapped");
  const fs::path out = dir.path() / "out";
  ASSERT_EQ(sassim({"sweep", sweep_data("small.txtpb"), "--out", out, "-j", "2"}).exit_status, 0);
  const SweepPlan plan = load_sweep_plan(sweep_data("small.txtpb"), out);
  ASSERT_NE(plan.runs[0].point, plan.runs[1].point);
  const auto csv = read_csv(out / "sweep.csv");
  const fs::path a = out / "runs" / plan.runs[0].id / "results.h5";
  const fs::path b = out / "runs" / plan.runs[1].id / "results.h5";
  fs::rename(a, dir.path() / "a.h5");
  fs::rename(b, a);
  fs::rename(dir.path() / "a.h5", b);
  const fs::path marker = out / "runs" / plan.runs[4].id / "COMPLETE";
  std::ofstream(marker, std::ios::trunc).close();
  const Captured r = sassim({"sweep", sweep_data("small.txtpb"), "--out", out});
  ASSERT_EQ(r.exit_status, 0) << r.out << r.err;
  for (const fs::path& f : {a, b}) {
    EXPECT_THAT(r.err, HasSubstr(fmt::format("sweep: {} holds results made with another config "
                                             "than this run's (another run's results?); the "
                                             "run is redone",
                                             f.string())));
  }
  EXPECT_THAT(r.err,
              HasSubstr(fmt::format("sweep: {} is empty; the run is redone", marker.string())));
  EXPECT_THAT(r.out, HasSubstr("7 finished earlier, 3 to run"));
  // The same table (but host_seconds, the host's time of the redone runs).
  const auto csv_after = read_csv(out / "sweep.csv");
  ASSERT_EQ(csv_after.size(), csv.size());
  const auto host = std::find(csv[0].begin(), csv[0].end(), "host_seconds") - csv[0].begin();
  for (std::size_t row = 0; row < csv.size(); ++row) {
    for (std::size_t col = 0; col < csv[row].size(); ++col) {
      if (static_cast<std::ptrdiff_t>(col) != host) {
        EXPECT_EQ(csv_after[row][col], csv[row][col]) << row << "," << col;
      }
    }
  }
}

TEST(LocalSweep, FailingRunIsReportedAndTheOthersComplete) {
  TempDir dir("failing");
  const fs::path spec = dir.path() / "spec.txtpb";
  write_file(spec, fmt::format("base_config: \"gtx1080\"\ntrace: \"{}\"\ntrace: \"{}\"\n"
                               "axis {{ path: \"num_sms\" values: [\"1\", \"2\"] }}\n"
                               "output: \"out\"\n",
                               repo_path(kVectorAdd).string(),
                               (fs::path(SASSIM_TEST_DATA_DIR) / "cli/truncated").string()));
  const Captured r = sassim({"sweep", spec, "-j", "2"});
  EXPECT_EQ(r.exit_status, 1);
  const SweepPlan plan = load_sweep_plan(spec);
  const fs::path out = dir.path() / "out";
  for (std::size_t i = 2; i < 4; ++i) {
    const fs::path failed = out / "failed" / plan.runs[i].id;
    EXPECT_THAT(r.err, HasSubstr(fmt::format("run {} (id {}", i, plan.runs[i].id)));
    EXPECT_THAT(r.err, HasSubstr("failed: exit status 1; log: " + (failed / "log.txt").string()));
    EXPECT_THAT(read_file(failed / "log.txt"), HasSubstr("kernel-1.traceg"));
    EXPECT_EQ(read_file(failed / "exit_status.txt"), "exit status 1\n");
    EXPECT_FALSE(fs::exists(out / "runs" / plan.runs[i].id));
  }
  EXPECT_THAT(r.err, HasSubstr("2 of 4 runs failed"));
  EXPECT_EQ(finished_ids(out).size(), 2u);
  MergedFile merged(out / "sweep.h5");
  EXPECT_EQ(merged.text("run_id"), (std::vector<std::string>{plan.runs[0].id, plan.runs[1].id}));

  // A rerun retries only the failed runs.
  const auto stamps = marker_stamps(plan);
  const Captured again = sassim({"sweep", spec, "-j", "2"});
  EXPECT_EQ(again.exit_status, 1);
  EXPECT_THAT(again.out, HasSubstr("2 finished earlier, 2 to run"));
  EXPECT_EQ(marker_stamps(plan), stamps);
}

TEST(LocalSweep, FinishedRunMadeWithAnotherConfigIsAnErrorNotReused) {
  TempDir dir("changed");
  const fs::path spec = dir.path() / "spec.txtpb";
  write_file(dir.path() / "base.txtpb", "base: \"gtx1080\"\n");
  write_file(spec, fmt::format("base_config: \"base.txtpb\"\ntrace: \"{}\"\n"
                               "axis {{ path: \"num_sms\" values: [\"1\", \"2\"] }}\n"
                               "output: \"out\"\n",
                               repo_path(kVectorAdd).string()));
  ASSERT_EQ(sassim({"sweep", spec}).exit_status, 0);
  const auto stamps = marker_stamps(load_sweep_plan(spec));
  write_file(dir.path() / "base.txtpb", "base: \"gtx1080\"\nl1 { hit_latency_cycles: 7 }\n");
  const Captured r = sassim({"sweep", spec});
  EXPECT_EQ(r.exit_status, 1);
  EXPECT_THAT(r.err, HasSubstr("2 finished runs in " + (dir.path() / "out").string() +
                               " were made with other parameters"));
  EXPECT_EQ(marker_stamps(load_sweep_plan(spec)), stamps);
}

TEST(LocalSweep, DryRunListsTheRunsAndWritesNothing) {
  TempDir dir("dry");
  const Captured r =
      sassim({"sweep", sweep_data("small.txtpb"), "--out", dir.path() / "out", "--dry-run"});
  ASSERT_EQ(r.exit_status, 0) << r.err;
  const SweepPlan plan = load_sweep_plan(sweep_data("small.txtpb"), dir.path() / "out");
  for (const SweepRun& run : plan.runs) EXPECT_THAT(r.out, HasSubstr(run.id));
  EXPECT_THAT(r.out, HasSubstr("num_sms=1 sm.units.fp32.latency_cycles=12"));
  EXPECT_THAT(r.out, HasSubstr("10 runs (2 traces x 5 config points)"));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

TEST(LocalSweep, BadSpecFailsBeforeAnythingRuns) {
  TempDir dir("badspec");
  const fs::path spec = dir.path() / "spec.txtpb";
  write_file(spec, fmt::format("base_config: \"gtx1080\"\ntrace: \"{}\"\n"
                               "axis {{ path: \"num_sms\" values: [\"1\", \"lots\"] }}\n",
                               repo_path(kVectorAdd).string()));
  const Captured r = sassim({"sweep", spec, "--out", dir.path() / "out"});
  EXPECT_EQ(r.exit_status, 1);
  EXPECT_THAT(r.err, HasSubstr(spec.string() + ":3:"));
  EXPECT_THAT(r.err, HasSubstr("'lots'"));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

TEST(LocalSweep, SecondSweepOnTheSameFolderIsRefused) {
  TempDir dir("locked");
  const fs::path out = dir.path() / "out";
  fs::create_directories(out);
  write_file(out / ".lock", "");
  const std::optional<PathLock> held = PathLock::try_lock(out / ".lock");
  ASSERT_TRUE(held.has_value());
  const Captured r = sassim({"sweep", sweep_data("small.txtpb"), "--out", out});
  EXPECT_EQ(r.exit_status, 1);
  EXPECT_THAT(r.err, HasSubstr("another sweep is working on " + out.string()));
  EXPECT_FALSE(fs::exists(out / "runs"));
}

}  // namespace
}  // namespace sassim::sweep::test
