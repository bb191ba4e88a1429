#pragma once
// A one-line progress display on a terminal (kernels done, simulated cycles,
// warp instructions per second); silent when stderr is not a terminal.
#include <chrono>
#include <cstdint>

#include "sim/gpu.h"

namespace sassim::cli {

class Progress {
 public:
  explicit Progress(bool enabled);
  ~Progress();
  void update(const sim::ProgressEvent& event);

 private:
  bool enabled_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace sassim::cli
