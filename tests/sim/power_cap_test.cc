// Power capping (sim/power_cap.h): the busiest window's power of a run's kernels, and
// the search for the highest clock of the grid whose power stays within the limit.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/power_cap.h"

namespace sassim::sim {
namespace {

KernelResult kernel(std::uint64_t start, std::uint64_t cycles, double joules) {
  KernelResult r;
  r.start_cycle = start;
  r.cycles = cycles;
  r.energy.modelled = true;
  r.energy.total_j = joules;
  return r;
}

TEST(PowerCap, TheWholeSpanOrTheBusiestWindow) {
  // At 1 MHz a cycle is a microsecond: 10 us drawing 2 J, 10 us idle, 20 us drawing 1 J.
  const std::vector<KernelResult> runs = {kernel(0, 10, 2.0), kernel(20, 20, 1.0)};
  EXPECT_DOUBLE_EQ(peak_window_power_w(runs, 1.0, 0), 3.0 / 40e-6);
  EXPECT_DOUBLE_EQ(peak_window_power_w(runs, 1.0, 1.0), 3.0 / 40e-6);  // longer than the span
  // 10 us windows: the first kernel alone, 2 J.
  EXPECT_DOUBLE_EQ(peak_window_power_w(runs, 1.0, 10e-6), 2.0 / 10e-6);
  // 25 us windows: [0, 25] holds 2 J and a quarter of the second kernel; [15, 40] 1 J.
  EXPECT_DOUBLE_EQ(peak_window_power_w(runs, 1.0, 25e-6), 2.25 / 25e-6);
  // At 2 MHz the same cycles take half the time.
  EXPECT_DOUBLE_EQ(peak_window_power_w(runs, 2.0, 0), 3.0 / 20e-6);
  // Launches without an energy model draw nothing.
  KernelResult unmodelled = kernel(0, 10, 0);
  unmodelled.energy.modelled = false;
  EXPECT_DOUBLE_EQ(peak_window_power_w({unmodelled}, 1.0, 0), 0.0);
}

// Power of a GPU at f MHz: dynamic C V^2 f with V linear in f above 0.7 V, plus static.
double gpu_power(double mhz) {
  const double v = std::max(0.7, 0.7 + 0.0003 * (mhz - 1000));
  return 400.0 * (v / 1.0) * (v / 1.0) * mhz / 1980.0 + 80.0 * v;
}

TEST(PowerCap, FindsTheHighestClockOfTheGridWithinTheLimit) {
  // gpu_power(1980) is 474.7 W: limits from 70% of it (at most 7 clocks simulated) down
  // to a third (at most 9).
  for (double limit : {460.0, 420.0, 380.0, 340.0, 300.0, 250.0, 200.0, 150.0}) {
    PowerCapSearch search{.limit_w = limit, .start_mhz = 1980, .step_mhz = 15, .min_mhz = 300};
    std::vector<double> tried;
    const PowerCapResult got = find_capped_clock(search, [&](double mhz) {
      tried.push_back(mhz);
      return gpu_power(mhz);
    });
    double want = 1980;
    while (want - 15 >= 300 && gpu_power(want) > limit) want -= 15;
    EXPECT_DOUBLE_EQ(got.core_mhz, want) << limit;
    EXPECT_TRUE(got.within) << limit;
    EXPECT_DOUBLE_EQ(got.power_w, gpu_power(want)) << limit;
    EXPECT_EQ(got.runs, tried.size());
    EXPECT_DOUBLE_EQ(tried.front(), 1980.0);
    EXPECT_LE(got.runs, limit >= 330 ? 7U : 9U)
        << limit << ": " << fmt::format("{}", fmt::join(tried, " "));
    for (double mhz : tried) EXPECT_DOUBLE_EQ(std::fmod(1980.0 - mhz, 15.0), 0.0) << mhz;
  }
}

TEST(PowerCap, WithinTheLimitAtTheConfigsClockRunsOnce) {
  PowerCapSearch search{.limit_w = 1000, .start_mhz = 1980, .step_mhz = 15, .min_mhz = 300};
  const PowerCapResult got = find_capped_clock(search, gpu_power);
  EXPECT_DOUBLE_EQ(got.core_mhz, 1980.0);
  EXPECT_EQ(got.runs, 1U);
  EXPECT_TRUE(got.within);
}

TEST(PowerCap, AFloorThatDrawsTooMuchIsReportedAsSuch) {
  // The lowest grid clock at or above 1,000 MHz is 1,005 MHz (1,980 - 65 x 15).
  PowerCapSearch search{.limit_w = 50, .start_mhz = 1980, .step_mhz = 15, .min_mhz = 1000};
  const PowerCapResult got = find_capped_clock(search, gpu_power);
  EXPECT_FALSE(got.within);
  EXPECT_DOUBLE_EQ(got.core_mhz, 1005.0);
  EXPECT_DOUBLE_EQ(got.power_w, gpu_power(1005.0));
  // No clock below the configured one.
  PowerCapSearch none{.limit_w = 50, .start_mhz = 1980, .step_mhz = 15, .min_mhz = 1970};
  const PowerCapResult one = find_capped_clock(none, gpu_power);
  EXPECT_FALSE(one.within);
  EXPECT_DOUBLE_EQ(one.core_mhz, 1980.0);
  EXPECT_EQ(one.runs, 1U);
}

}  // namespace
}  // namespace sassim::sim
