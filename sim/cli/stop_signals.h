#pragma once
// SIGINT and SIGTERM as stop requests: while a StopOnSignals lives, the first of them
// sets a flag that the run polls (stop_signal()) instead of killing the process; a
// second one kills it as usual.
#include <signal.h>

namespace sassim::cli {

// The signal that asked the run to stop, 0 while none has.
int stop_signal();

class StopOnSignals {
 public:
  StopOnSignals();
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

 private:
  struct sigaction old_int_ {
  }, old_term_{};
};

}  // namespace sassim::cli
