#pragma once
// Axis ranges and tick positions for the SVG plots.
#include <string>
#include <vector>

namespace sassim::correlate {

// A "nice" step (1, 2 or 5 times a power of ten) close to `rough`.
double nice_step(double rough);

// Decades covering [lo, hi] (lo > 0): {10^floor(log10 lo), 10^ceil(log10 hi)}, at least
// one decade wide.
struct LogRange {
  double lo;
  double hi;
};
LogRange log_range(double lo, double hi);

// Tick values within a log range: every decade, plus 2x and 5x when it spans at most
// two decades.
std::vector<double> log_ticks(const LogRange& range);

// Compact label: 100, 2k, 50k, 1.5M.
std::string si_label(double value);

}  // namespace sassim::correlate
