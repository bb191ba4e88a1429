// A sweep killed in the middle and started again: nothing finished is redone or lost,
// the interrupted run is redone from scratch, and the merged table has each run once.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <map>
#include <thread>

#include "merged_table.h"
#include "sweep/sweep_plan.h"
#include "sweep_test_support.h"

namespace sassim::sweep::test {
namespace {

using ::testing::HasSubstr;

// Starts `sassim sweep` without waiting for it; its output goes to `log`.
pid_t start_sweep(const std::vector<std::string>& args, const fs::path& log) {
  std::vector<std::string> words = {SASSIM_BINARY, "sweep"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    FILE* f = std::freopen(log.c_str(), "w", stdout);
    if (f != nullptr) ::dup2(::fileno(stdout), 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

// Stamps of every file of the finished runs.
std::map<std::string, FileStamp> finished_files(const fs::path& out) {
  std::map<std::string, FileStamp> stamps;
  for (const std::string& id : finished_ids(out)) {
    stamps[id] = stamp(out / "runs" / id);
    for (const char* f : {"COMPLETE", "results.h5", "log.txt", "config.txtpb", "command.txt"}) {
      stamps[id + "/" + f] = stamp(out / "runs" / id / f);
    }
  }
  return stamps;
}

TEST(KilledSweep, RerunRedoesOnlyWhatWasNotFinished) {
  TempDir dir("kill");
  const fs::path out = dir.path() / "out";
  const std::vector<std::string> args = {sweep_data("small.txtpb"), "--out", out, "--jobs", "1"};
  const pid_t pid = start_sweep(args, dir.path() / "first.log");
  ASSERT_GT(pid, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (finished_ids(out).size() < 3 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status))
      << "the sweep ended before it could be killed: " << read_file(dir.path() / "first.log");
  const std::map<std::string, FileStamp> before = finished_files(out);
  const std::size_t finished = finished_ids(out).size();
  ASSERT_GE(finished, 3u);
  ASSERT_LT(finished, 10u) << "the sweep finished before it was killed";
  EXPECT_FALSE(fs::exists(out / "sweep.csv"));

  std::vector<std::string> rerun = {"sweep"};
  rerun.insert(rerun.end(), args.begin(), args.end());
  const Captured r = sassim(rerun);
  ASSERT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr(std::to_string(finished) + " finished earlier, " +
                               std::to_string(10 - finished) + " to run"));
  const std::map<std::string, FileStamp> after = finished_files(out);
  for (const auto& [file, s] : before) EXPECT_EQ(after.at(file), s) << file << " was redone";
  EXPECT_EQ(finished_ids(out).size(), 10u);
  EXPECT_TRUE(fs::is_empty(out / ".tmp"));

  const SweepPlan plan = load_sweep_plan(sweep_data("small.txtpb"), out);
  std::vector<std::string> expected;
  for (const SweepRun& run : plan.runs) expected.push_back(run.id);
  EXPECT_EQ(MergedFile(out / "sweep.h5").text("run_id"), expected);
  const auto csv = read_csv(out / "sweep.csv");
  ASSERT_EQ(csv.size(), 11u);
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(csv[i + 1][1], expected[i]);
}

}  // namespace
}  // namespace sassim::sweep::test
