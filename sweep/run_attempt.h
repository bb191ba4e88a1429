#pragma once
// One attempt at one run: a fresh locked temp folder, the `sassim run` child process
// writing into it, and when the child ends, the folder moved whole into runs/<id>
// (with its completion marker) or into failed/<id>.
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sweep/durable_files.h"
#include "sweep/sweep_layout.h"
#include "sweep/sweep_plan.h"

namespace sassim::sweep {

struct RunOutcome {
  bool done = false;          // finished, marker written, in runs/<id>
  std::string detail;         // why it failed: "exit status 1", "killed by signal 9 (Killed)"
  std::filesystem::path log;  // the run's log where it now lies
};

// The path of the running sassim binary (/proc/self/exe).
std::string self_executable();

// The child's argument list: `sassim run TRACE --config BASE --set ... --out results.h5 -q
// --threads N`,
// run in the run's folder.
std::vector<std::string> run_arguments(const SweepPlan& plan, const SweepRun& run,
                                       const std::string& executable);

// The arguments as one line a POSIX shell reads back to the same words.
std::string shell_quoted(const std::vector<std::string>& words);

// "exit status 3", "killed by signal 9 (Killed)".
std::string describe_wait_status(int wait_status);

class RunAttempt {
 public:
  // Creates the temp folder and writes the resolved config and the command into it.
  RunAttempt(const SweepPlan& plan, const SweepLayout& layout, const SweepRun& run,
             const std::string& executable);

  // Forks the child (stdout and stderr to the log; killed if this process dies).
  pid_t start();
  // Completes the attempt from the child's wait status. Throws sassim::Error when the
  // files cannot be moved or a different finished run already holds runs/<id>.
  RunOutcome finish(int wait_status);

  const SweepRun& run() const { return run_; }

 private:
  const SweepPlan& plan_;
  const SweepLayout& layout_;
  SweepRun run_;
  std::vector<std::string> argv_;
  LockedTempDir tmp_;
};

}  // namespace sassim::sweep
