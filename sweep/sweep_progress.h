#pragma once
// The sweep's one-line progress display on a terminal (runs done, running, failed,
// estimated time left) and its messages. The progress line is drawn only when stderr
// is a terminal; messages (failed runs) always go to stderr, on their own lines.
#include <chrono>
#include <cstddef>
#include <string>

namespace sassim::sweep {

struct SweepCounts {
  std::size_t total = 0;  // runs this invocation has to do
  std::size_t done = 0;
  std::size_t running = 0;
  std::size_t pending = 0;  // Slurm: waiting in the queue
  std::size_t failed = 0;
};

class SweepProgress {
 public:
  explicit SweepProgress(bool terminal);
  ~SweepProgress();
  SweepProgress(const SweepProgress&) = delete;
  SweepProgress& operator=(const SweepProgress&) = delete;

  // Redraws the line (at most five times a second unless `force`).
  void update(const SweepCounts& counts, bool force = false);
  // Prints a line of its own, above the progress line.
  void message(const std::string& line);
  // Clears the progress line.
  void clear();

 private:
  bool terminal_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

// "1:05:03", "4:07", "0:09".
std::string format_duration(double seconds);

}  // namespace sassim::sweep
