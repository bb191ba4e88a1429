#include "sim/cli/stop_signals.h"

#include <csignal>

namespace sassim::cli {
namespace {

// A signal handler can only set a flag of this type: the one process-wide state here.
volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void request_stop(int signal) {
  g_stop_signal = signal;
}

}  // namespace

int stop_signal() {
  return static_cast<int>(g_stop_signal);
}

StopOnSignals::StopOnSignals() {
  g_stop_signal = 0;
  struct sigaction action {};
  action.sa_handler = request_stop;
  action.sa_flags = static_cast<int>(SA_RESETHAND);
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &old_int_);
  sigaction(SIGTERM, &action, &old_term_);
}

StopOnSignals::~StopOnSignals() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

}  // namespace sassim::cli
