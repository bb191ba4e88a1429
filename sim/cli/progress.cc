#include "sim/cli/progress.h"

#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

namespace sassim::cli {

Progress::Progress(bool enabled)
    : enabled_(enabled && isatty(fileno(stderr)) != 0),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

Progress::~Progress() {
  if (printed_) fmt::print(stderr, "\r\033[K");
}

void Progress::update(const sim::ProgressEvent& event) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  fmt::print(stderr, "\r\033[K{} kernels done{} | cycle {} | {} warp insts | {:.0f} warp insts/s",
             event.kernels_done,
             event.current != nullptr ? fmt::format(" | running kernel {}", event.current->id) : "",
             event.cycle, event.warp_insts,
             seconds > 0 ? static_cast<double>(event.warp_insts) / seconds : 0.0);
  std::fflush(stderr);
  printed_ = true;
}

}  // namespace sassim::cli
