#pragma once
// Which Nsight Compute metric gives a launch's cycles, and unit conversions.
// Preference (the first present wins; --hw-metric forces one):
//   gpc__cycles_elapsed.avg, sm__cycles_elapsed.avg           (ncu 2019.5+ names)
//   gpc__elapsed_cycles_avg, sm__elapsed_cycles_avg           (older names)
//   gpc__cycles_elapsed.max, sm__cycles_elapsed.max, gpc__elapsed_cycles_max,
//   sm__elapsed_cycles_max
//   gpu__time_duration.sum, gpu__time_duration (nanoseconds) x core clock, the clock from
//   --clock-mhz, else gpc__/sm__cycles_elapsed.avg.per_second (measured), else
//   device__attribute_clock_rate (kHz), else device__attribute_max_gpu_frequency_khz.
// Section display names map to metrics: "Elapsed Cycles" = gpc__cycles_elapsed.max,
// "Duration" = gpu__time_duration.sum, "SM Frequency" = gpc__cycles_elapsed.avg.per_second.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "correlate/hw_measurement.h"

namespace sassim::correlate {

struct MetricReading {
  double value = 0;
  std::string unit;      // as printed ("cycle", "nsecond", "" when none)
  std::size_t line = 0;  // where it was read
};

// Readings of one launch by canonical metric name.
using LaunchReadings = std::map<std::string, MetricReading>;

// The metric name for a section display name ("Elapsed Cycles"), else the name itself.
std::string canonical_ncu_metric(std::string_view name);

// Whether an importer should keep this (canonical) metric for the cycle choice.
bool is_wanted_ncu_metric(std::string_view canonical, const HwImportOptions& options);

// Unit conversions; nullopt when the unit is not one of that kind.
std::optional<double> to_cycles(double value, std::string_view unit);       // "", cycle, Kcycle..
std::optional<double> to_nanoseconds(double value, std::string_view unit);  // "", nsecond, us..
std::optional<double> to_mhz(double value, std::string_view unit);  // Hz..GHz, cycle/nsecond

struct CycleValue {
  double cycles = 0;
  std::string metric;  // the metric used, with the clock when converted from a duration
};

// Cycles of one launch. Throws sassim::Error at FILE:LINE naming what was looked for when
// no usable metric is present.
CycleValue ncu_launch_cycles(const LaunchReadings& readings, const HwImportOptions& options,
                             const std::string& file, std::size_t line);

}  // namespace sassim::correlate
