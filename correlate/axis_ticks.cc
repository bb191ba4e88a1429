#include "correlate/axis_ticks.h"

#include <cmath>

#include <fmt/format.h>

namespace sassim::correlate {

double nice_step(double rough) {
  if (!(rough > 0)) return 1;
  const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
  const double f = rough / magnitude;
  const double nice = f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10;
  return nice * magnitude;
}

LogRange log_range(double lo, double hi) {
  LogRange r{std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi)))};
  if (r.hi <= r.lo) r.hi = r.lo * 10;
  return r;
}

std::vector<double> log_ticks(const LogRange& range) {
  const int first = static_cast<int>(std::lround(std::log10(range.lo)));
  const int last = static_cast<int>(std::lround(std::log10(range.hi)));
  const bool minor = last - first <= 2;
  std::vector<double> ticks;
  for (int e = first; e <= last; ++e) {
    const double decade = std::pow(10.0, e);
    ticks.push_back(decade);
    if (minor && e < last) {
      ticks.push_back(2 * decade);
      ticks.push_back(5 * decade);
    }
  }
  return ticks;
}

std::string si_label(double value) {
  const double a = std::abs(value);
  if (a >= 1e9) return fmt::format("{:g}G", value / 1e9);
  if (a >= 1e6) return fmt::format("{:g}M", value / 1e6);
  if (a >= 1e3) return fmt::format("{:g}k", value / 1e3);
  return fmt::format("{:g}", value);
}

}  // namespace sassim::correlate
