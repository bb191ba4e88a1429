#pragma once
// Progress of a run on stderr. On a terminal: one line redrawn five times a second, the
// first within a second, with the share done (kernels, and the running kernel's CTAs)
// and an estimate of the time left. Otherwise (a log file, a Slurm job): a plain line
// every `log_interval`. Disabled: silent.
#include <chrono>
#include <cstdint>
#include <string>

#include "sim/gpu.h"

namespace sassim::cli {

class Progress {
 public:
  enum class Mode { kOff, kTerminal, kLog };
  // kTerminal when stderr is a terminal, else kLog; kOff when !enabled.
  static Mode mode_for_stderr(bool enabled);

  explicit Progress(Mode mode, std::chrono::seconds log_interval = std::chrono::seconds(30));
  ~Progress();
  void update(const sim::ProgressEvent& event);

  // The text of one progress report at `seconds` into the run (no newline), e.g.
  //   "12/1000 kernels (1.3%) | kernel 13: 40/132 CTAs | cycle 51200 | 1.2M warp insts/s |
  //    ETA 1m05s"
  static std::string line(const sim::ProgressEvent& event, double seconds);

 private:
  Mode mode_;
  std::chrono::seconds log_interval_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace sassim::cli
