#pragma once
// Running a helper command (sbatch, squeue, ...) and capturing what it prints.
#include <string>
#include <vector>

namespace sassim::sweep {

struct Captured {
  bool started = false;  // false when the program could not be executed
  int exit_status = -1;  // the exit status, or -1 when it was killed or not started
  std::string out, err;
};

// Runs argv (argv[0] looked up on PATH) with stdin from /dev/null and waits for it.
Captured capture(const std::vector<std::string>& argv);

// True when `program` is an executable file on PATH.
bool on_path(const std::string& program);

}  // namespace sassim::sweep
