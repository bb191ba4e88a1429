// The local backend: a pool of `sassim run` child processes.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "ground/error.h"
#include "sweep/backends.h"
#include "sweep/merge.h"
#include "sweep/run_attempt.h"

namespace sassim::sweep {

namespace {

// The children still running; on an early exit (an exception) they are stopped.
class Children {
 public:
  ~Children() {
    for (auto& [pid, attempt] : running) ::kill(pid, SIGTERM);
    for (auto& [pid, attempt] : running) {
      int status = 0;
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }
  std::map<pid_t, std::unique_ptr<RunAttempt>> running;
};

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw Error(fmt::format("waitpid: {}", std::strerror(errno)));
  }
  return status;
}

}  // namespace

std::string describe_run(const SweepPlan& plan, const SweepRun& run) {
  std::string sets;
  for (const std::string& s : plan.points[run.point].overrides) sets += " " + s;
  return fmt::format("run {} (id {}, trace {}{})", run.index, run.id,
                     plan.traces[run.trace].written, sets.empty() ? "" : ", set" + sets);
}

BackendResult run_local(const SweepPlan& plan, const SweepLayout& layout,
                        const std::vector<const SweepRun*>& todo, const std::string& executable,
                        unsigned jobs, SweepProgress& progress) {
  BackendResult result;
  std::deque<const SweepRun*> queue(todo.begin(), todo.end());
  Children children;
  auto& running = children.running;
  const std::size_t limit = std::max(jobs, 1u);
  while (!queue.empty() || !running.empty()) {
    while (running.size() < limit && !queue.empty()) {
      auto attempt = std::make_unique<RunAttempt>(plan, layout, *queue.front(), executable);
      queue.pop_front();
      const pid_t pid = attempt->start();
      running.emplace(pid, std::move(attempt));
    }
    progress.update({todo.size(), result.done, running.size(), 0, result.failed});
    bool reaped = false;
    for (auto it = running.begin(); it != running.end();) {
      int status = 0;
      const pid_t pid = ::waitpid(it->first, &status, WNOHANG);
      if (pid == 0 || (pid < 0 && errno == EINTR)) {
        ++it;
        continue;
      }
      if (pid < 0) throw Error(fmt::format("waitpid: {}", std::strerror(errno)));
      const RunOutcome outcome = it->second->finish(status);
      if (outcome.done) {
        ++result.done;
      } else {
        ++result.failed;
        progress.message(fmt::format("sweep: {} failed: {}; log: {}",
                                     describe_run(plan, it->second->run()), outcome.detail,
                                     outcome.log.string()));
      }
      it = running.erase(it);
      reaped = true;
    }
    if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  progress.update({todo.size(), result.done, 0, 0, result.failed}, true);
  return result;
}

bool execute_one_run(const SweepPlan& plan, const SweepLayout& layout, const std::string& run_id,
                     const std::string& executable) {
  const SweepRun* run = nullptr;
  for (const SweepRun& r : plan.runs) {
    if (r.id == run_id) run = &r;
  }
  if (run == nullptr) {
    throw Error(
        fmt::format("the sweep {} has no run with id {} (was the spec changed since "
                    "the job was submitted?)",
                    plan.spec_path.string(), run_id));
  }
  if (run_finished(plan, layout, *run)) {
    fmt::print("sweep: {} finished earlier\n", describe_run(plan, *run));
    return true;
  }
  RunAttempt attempt(plan, layout, *run, executable);
  const RunOutcome outcome = attempt.finish(wait_for(attempt.start()));
  if (outcome.done) {
    fmt::print("sweep: {} finished; results in {}\n", describe_run(plan, *run),
               layout.run_dir(run->id).string());
  } else {
    fmt::print(stderr, "sweep: {} failed: {}; log: {}\n", describe_run(plan, *run), outcome.detail,
               outcome.log.string());
  }
  return outcome.done;
}

}  // namespace sassim::sweep
