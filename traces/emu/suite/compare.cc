#include "traces/emu/suite/compare.h"

#include <fmt/format.h>

#include <cmath>

namespace sassim::emu {

namespace {

template <typename Tolerance>
SuiteCheck compare(const std::vector<float>& got, const std::vector<float>& want,
                   Tolerance tolerance, std::string_view what) {
  SuiteCheck c;
  size_t bad = 0;
  for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
    const double diff = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (!(diff <= tolerance(i))) {
      if (bad == 0) {
        c.message = fmt::format("{}: mismatch at {}: got {:.9g}, expected {:.9g}; ", what, i,
                                got[i], want[i]);
      }
      ++bad;
    }
  }
  if (got.size() != want.size()) {
    c.ok = false;
    c.message = fmt::format("{}: {} values, expected {}", what, got.size(), want.size());
    return c;
  }
  c.ok = bad == 0;
  c.message += fmt::format("{}: {} of {} values match the CPU reference", what, got.size() - bad,
                           got.size());
  return c;
}

}  // namespace

SuiteCheck compare_values(const std::vector<float>& got, const std::vector<float>& want, double rel,
                          double abs, std::string_view what) {
  return compare(
      got, want, [&](size_t i) { return abs + rel * std::fabs(static_cast<double>(want[i])); },
      what);
}

SuiteCheck compare_values(const std::vector<float>& got, const std::vector<float>& want,
                          const std::vector<double>& tolerance, std::string_view what) {
  if (tolerance.size() != want.size()) {
    return {false,
            fmt::format("{}: {} tolerances for {} values", what, tolerance.size(), want.size())};
  }
  return compare(
      got, want, [&](size_t i) { return tolerance[i]; }, what);
}

}  // namespace sassim::emu
