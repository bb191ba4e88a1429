// The Slurm backend: one job array whose task i runs the i-th run still to do through
// `sassim sweep SPEC --out OUT --exec-run ID`, which keeps the same folders, markers and
// resume rules as the local backend.
#include <chrono>
#include <map>
#include <set>
#include <sstream>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#include "ground/error.h"
#include "sweep/backends.h"
#include "sweep/capture.h"
#include "sweep/durable_files.h"
#include "sweep/merge.h"
#include "sweep/run_attempt.h"

namespace sassim::sweep {

namespace fs = std::filesystem;

namespace {

// The first unused slurm/submit-NNN folder, created.
fs::path new_submission_dir(const SweepLayout& layout) {
  std::error_code ec;
  fs::create_directories(layout.slurm_dir(), ec);
  for (int n = 1; n < 100000; ++n) {
    const fs::path dir = layout.slurm_dir() / fmt::format("submit-{:03}", n);
    if (fs::create_directory(dir, ec)) return dir;
    if (ec) throw Error(fmt::format("cannot create '{}': {}", dir.string(), ec.message()));
  }
  throw Error(fmt::format("too many submissions in '{}'", layout.slurm_dir().string()));
}

std::string job_script(const fs::path& manifest) {
  const std::string quoted = shell_quoted({manifest.string()});
  return fmt::format(
      "#!/bin/bash\n"
      "# Written by `sassim sweep --backend slurm`: array task i runs line i of the manifest\n"
      "# (columns: array index, run id, command).\n"
      "set -euo pipefail\n"
      "line=\"$(awk -F '\\t' -v i=\"$SLURM_ARRAY_TASK_ID\" '$1 == i {{ print $3; exit }}' {0})\"\n"
      "if [[ -z \"$line\" ]]; then\n"
      "  echo \"no task $SLURM_ARRAY_TASK_ID in {0}\" >&2\n"
      "  exit 2\n"
      "fi\n"
      "eval \"exec $line\"\n",
      quoted);
}

std::vector<std::string> sbatch_arguments(const SweepPlan& plan, const fs::path& dir,
                                          std::size_t tasks) {
  const SlurmOptions& o = plan.slurm;
  std::string array = fmt::format("--array=0-{}", tasks - 1);
  if (o.max_concurrent() > 0) array += fmt::format("%{}", o.max_concurrent());
  std::vector<std::string> args = {"sbatch",
                                   "--parsable",
                                   "--job-name=sassim-sweep",
                                   array,
                                   "--output=" + (dir / "task-%A_%a.log").string(),
                                   "--chdir=" + plan.output.string()};
  if (!o.partition().empty()) args.push_back("--partition=" + o.partition());
  if (!o.time_limit().empty()) args.push_back("--time=" + o.time_limit());
  if (!o.memory().empty()) args.push_back("--mem=" + o.memory());
  if (plan.threads_per_run > 1) {
    args.push_back(fmt::format("--cpus-per-task={}", plan.threads_per_run));
  }
  for (const std::string& a : o.sbatch_args()) args.push_back(a);
  args.push_back((dir / "job.sh").string());
  return args;
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

struct QueueState {
  bool ended = false;
  std::size_t pending = 0, running = 0;
};

// Asks squeue about the job's tasks; a job squeue no longer knows has ended.
QueueState poll_queue(const std::string& job_id, int& failures_in_a_row) {
  const Captured q = capture({"squeue", "-h", "-r", "-j", job_id, "-o", "%T"});
  QueueState state;
  if (q.exit_status != 0) {
    if (q.err.find("Invalid job id") != std::string::npos) {
      state.ended = true;
      return state;
    }
    if (++failures_in_a_row >= 10) {
      throw Error(fmt::format("squeue fails: {}", q.started ? first_line(q.err) : "not found"));
    }
    return state;  // a busy controller: ask again
  }
  failures_in_a_row = 0;
  std::istringstream lines(q.out);
  std::string s;
  std::size_t tasks = 0;
  while (lines >> s) {
    ++tasks;
    if (s == "PENDING" || s == "REQUEUED" || s == "SUSPENDED") ++state.pending;
    if (s == "RUNNING" || s == "COMPLETING" || s == "CONFIGURING") ++state.running;
  }
  state.ended = tasks == 0;
  return state;
}

// Each array task's end state ("TIMEOUT, exit code 0:15") from sacct or, where there
// is no accounting, from scontrol while the controller still remembers the job.
std::map<std::size_t, std::string> task_states(const std::string& job_id) {
  std::map<std::size_t, std::string> states;
  const Captured acct =
      capture({"sacct", "-n", "-P", "-X", "-j", job_id, "--format=JobID,State,ExitCode"});
  if (acct.exit_status == 0 && !acct.out.empty()) {
    std::istringstream lines(acct.out);
    std::string line;
    while (std::getline(lines, line)) {
      const std::size_t underscore = line.find('_'), bar = line.find('|');
      if (underscore == std::string::npos || bar == std::string::npos) continue;
      const std::string rest = line.substr(bar + 1);
      states[std::stoul(line.substr(underscore + 1, bar - underscore - 1))] = fmt::format(
          "{}, exit code {}", rest.substr(0, rest.find('|')), rest.substr(rest.find('|') + 1));
    }
    return states;
  }
  const Captured show = capture({"scontrol", "-o", "show", "job", job_id});
  std::istringstream lines(show.out);
  std::string line;
  auto field = [](const std::string& text, const std::string& key) {
    const std::size_t at = text.find(" " + key + "=");
    if (at == std::string::npos) return std::string();
    const std::size_t from = at + key.size() + 2;
    return text.substr(from, text.find(' ', from) - from);
  };
  while (std::getline(lines, line)) {
    // "ArrayTaskId=3", or a range of tasks that never started: "0-3", "2,5-7%2".
    std::string tasks = field(line, "ArrayTaskId");
    tasks = tasks.substr(0, tasks.find('%'));
    const std::string state =
        fmt::format("{}, exit code {}", field(line, "JobState"), field(line, "ExitCode"));
    std::istringstream ranges(tasks);
    std::string range;
    while (std::getline(ranges, range, ',')) {
      if (range.empty() || range.find_first_not_of("0123456789-") != std::string::npos) continue;
      const std::size_t dash = range.find('-');
      const std::size_t first = std::stoul(range.substr(0, dash));
      const std::size_t last =
          dash == std::string::npos ? first : std::stoul(range.substr(dash + 1));
      for (std::size_t t = first; t <= last; ++t) states.emplace(t, state);
    }
  }
  return states;
}

}  // namespace

BackendResult run_slurm(const SweepPlan& plan, const SweepLayout& layout,
                        const std::vector<const SweepRun*>& todo, const std::string& executable,
                        SweepProgress& progress) {
  BackendResult result;
  if (todo.empty()) return result;
  for (const char* tool : {"sbatch", "squeue"}) {
    if (!on_path(tool)) {
      throw Error(
          fmt::format("'{}' is not on PATH: the slurm backend needs Slurm's client "
                      "commands (and SLURM_CONF for a cluster of scripts/slurm-local.sh)",
                      tool));
    }
  }
  std::error_code ec;
  for (const SweepRun* run : todo) fs::remove_all(layout.failed_dir(run->id), ec);
  const fs::path dir = new_submission_dir(layout);
  std::string manifest;
  for (std::size_t i = 0; i < todo.size(); ++i) {
    manifest += fmt::format(
        "{}\t{}\t{}\n", i, todo[i]->id,
        shell_quoted({executable, "sweep", plan.spec_path.string(), "--out", plan.output.string(),
                      "--threads-per-run", std::to_string(plan.threads_per_run), "--exec-run",
                      todo[i]->id}));
  }
  write_file_durably(dir / "manifest.tsv", manifest);
  write_file_durably(dir / "job.sh", job_script(dir / "manifest.tsv"));
  fs::permissions(dir / "job.sh", fs::perms::owner_exec | fs::perms::group_exec,
                  fs::perm_options::add, ec);
  const std::vector<std::string> args = sbatch_arguments(plan, dir, todo.size());
  write_file_durably(dir / "sbatch.txt", shell_quoted(args) + "\n");
  const Captured submitted = capture(args);
  const std::string job_id = first_line(submitted.out).substr(0, submitted.out.find(';'));
  if (submitted.exit_status != 0 || job_id.empty() ||
      job_id.find_first_not_of("0123456789") != std::string::npos) {
    throw Error(fmt::format("sbatch failed ({}): {}", shell_quoted(args),
                            submitted.err.empty() ? submitted.out : submitted.err));
  }
  write_file_durably(dir / "job_id", job_id + "\n");
  progress.message(
      fmt::format("sweep: submitted job array {} ({} tasks, files in {}); following it with squeue "
                  "(stopping sassim does not cancel it: scancel {})",
                  job_id, todo.size(), dir.string(), job_id));

  std::set<std::string> reported;
  auto count = [&](const QueueState& queue) {
    SweepCounts counts{todo.size(), 0, queue.running, queue.pending, 0};
    for (const SweepRun* run : todo) {
      if (run_finished(plan, layout, *run)) {
        ++counts.done;
        continue;
      }
      const auto status = read_text_file(layout.failed_dir(run->id) / kExitStatusName);
      if (!status) continue;
      ++counts.failed;
      if (reported.insert(run->id).second) {
        progress.message(fmt::format("sweep: {} failed: {}; log: {}", describe_run(plan, *run),
                                     first_line(*status),
                                     (layout.failed_dir(run->id) / kLogName).string()));
      }
    }
    return counts;
  };

  const auto poll = std::chrono::duration<double>(plan.slurm.poll_seconds());
  int failures_in_a_row = 0;
  QueueState queue;
  while (!queue.ended) {
    std::this_thread::sleep_for(poll);
    queue = poll_queue(job_id, failures_in_a_row);
    progress.update(count(queue), true);
  }
  const SweepCounts final_counts = count({true, 0, 0});
  result.done = final_counts.done;
  result.failed = todo.size() - final_counts.done;
  if (result.failed > final_counts.failed) {
    const auto states = task_states(job_id);
    for (std::size_t i = 0; i < todo.size(); ++i) {
      const SweepRun& run = *todo[i];
      if (run_finished(plan, layout, run) || reported.count(run.id) > 0) continue;
      const auto state = states.find(i);
      progress.message(fmt::format("sweep: {} did not finish: slurm task {}_{} {}; log: {}",
                                   describe_run(plan, run), job_id, i,
                                   state == states.end() ? "ended (no state known)" : state->second,
                                   (dir / fmt::format("task-{}_{}.log", job_id, i)).string()));
    }
  }
  return result;
}

}  // namespace sassim::sweep
