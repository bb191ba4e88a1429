#include "sim/cli/progress.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace sassim::cli {
namespace {

std::string duration(double seconds) {
  const auto s = static_cast<std::uint64_t>(std::llround(seconds));
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, s / 60 % 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

std::string rate(double per_second) {
  if (per_second >= 1e6) return fmt::format("{:.1f}M", per_second / 1e6);
  if (per_second >= 1e3) return fmt::format("{:.0f}K", per_second / 1e3);
  return fmt::format("{:.0f}", per_second);
}

}  // namespace

Progress::Mode Progress::mode_for_stderr(bool enabled) {
  if (!enabled) return Mode::kOff;
  return isatty(fileno(stderr)) != 0 ? Mode::kTerminal : Mode::kLog;
}

Progress::Progress(Mode mode, std::chrono::seconds log_interval)
    : mode_(mode),
      log_interval_(log_interval),
      start_(std::chrono::steady_clock::now()),
      // The first report comes 0.5 s into the run on a terminal, one interval in a log.
      last_(mode == Mode::kTerminal ? start_ - std::chrono::milliseconds(300) : start_) {}

Progress::~Progress() {
  if (printed_ && mode_ == Mode::kTerminal) fmt::print(stderr, "\r\033[K");
}

std::string Progress::line(const sim::ProgressEvent& e, double seconds) {
  std::string text = fmt::format("{} kernels", e.kernels_done);
  // The share done: finished kernels plus the running kernel's retired CTAs.
  double done = -1;
  if (e.kernels_total > 0) {
    const double within = e.ctas_total > 0
                              ? static_cast<double>(e.ctas_done) / static_cast<double>(e.ctas_total)
                              : 0.0;
    done = (static_cast<double>(e.kernels_done) + within) / static_cast<double>(e.kernels_total);
    text = fmt::format("{}/{} kernels ({:.1f}%)", e.kernels_done, e.kernels_total, 100.0 * done);
  }
  if (e.current != nullptr) {
    text += fmt::format(" | kernel {}: {}/{} CTAs", e.current->id, e.ctas_done, e.ctas_total);
  }
  text += fmt::format(" | cycle {} | {} warp insts/s", e.cycle,
                      rate(seconds > 0 ? static_cast<double>(e.warp_insts) / seconds : 0.0));
  if (done > 0 && seconds > 0) text += " | ETA " + duration(seconds * (1.0 - done) / done);
  return text;
}

void Progress::update(const sim::ProgressEvent& event) {
  if (mode_ == Mode::kOff) return;
  const auto now = std::chrono::steady_clock::now();
  const auto interval =
      mode_ == Mode::kTerminal
          ? std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                std::chrono::milliseconds(200))
          : std::chrono::duration_cast<std::chrono::steady_clock::duration>(log_interval_);
  if (now - last_ < interval) return;
  last_ = now;
  const std::string text = line(event, std::chrono::duration<double>(now - start_).count());
  if (mode_ == Mode::kTerminal) {
    fmt::print(stderr, "\r\033[K{}", text);
  } else {
    fmt::print(stderr, "progress: {}\n", text);
  }
  std::fflush(stderr);
  printed_ = true;
}

}  // namespace sassim::cli
