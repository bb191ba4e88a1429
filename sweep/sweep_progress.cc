#include "sweep/sweep_progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace sassim::sweep {

std::string format_duration(double seconds) {
  const auto total = static_cast<long long>(std::llround(std::max(seconds, 0.0)));
  const long long h = total / 3600, m = total / 60 % 60, s = total % 60;
  return h > 0 ? fmt::format("{}:{:02}:{:02}", h, m, s) : fmt::format("{}:{:02}", m, s);
}

SweepProgress::SweepProgress(bool terminal)
    : terminal_(terminal && isatty(fileno(stderr)) != 0),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

SweepProgress::~SweepProgress() {
  clear();
}

void SweepProgress::clear() {
  if (!drawn_) return;
  fmt::print(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

void SweepProgress::message(const std::string& line) {
  clear();
  fmt::print(stderr, "{}\n", line);
  std::fflush(stderr);
}

void SweepProgress::update(const SweepCounts& counts, bool force) {
  if (!terminal_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && drawn_ && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const std::size_t ended = counts.done + counts.failed;
  std::string left = "time left unknown";
  if (ended > 0 && ended < counts.total) {
    const double per_run = elapsed / static_cast<double>(ended);
    left = fmt::format("~{} left",
                       format_duration(per_run * static_cast<double>(counts.total - ended)));
  }
  fmt::print(stderr, "\r\033[Ksweep: {}/{} done | {} running{} | {} failed | {} | {} elapsed",
             counts.done, counts.total, counts.running,
             counts.pending > 0 ? fmt::format(" | {} queued", counts.pending) : "", counts.failed,
             left, format_duration(elapsed));
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace sassim::sweep
