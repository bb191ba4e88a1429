#include "correlate/ncu_metrics.h"

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "correlate/csv_table.h"
#include "ground/error.h"

namespace sassim::correlate {
namespace {

constexpr std::array<std::string_view, 8> kCycleMetrics = {
    "gpc__cycles_elapsed.avg", "sm__cycles_elapsed.avg",  "gpc__elapsed_cycles_avg",
    "sm__elapsed_cycles_avg",  "gpc__cycles_elapsed.max", "sm__cycles_elapsed.max",
    "gpc__elapsed_cycles_max", "sm__elapsed_cycles_max"};
constexpr std::array<std::string_view, 2> kDurationMetrics = {"gpu__time_duration.sum",
                                                              "gpu__time_duration"};
constexpr std::array<std::string_view, 2> kMeasuredClocks = {"gpc__cycles_elapsed.avg.per_second",
                                                             "sm__cycles_elapsed.avg.per_second"};
// CUDA reports these attributes in kHz.
constexpr std::array<std::string_view, 2> kNominalClocksKhz = {
    "device__attribute_clock_rate", "device__attribute_max_gpu_frequency_khz"};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

struct Clock {
  double mhz = 0;
  std::string source;
};

std::optional<Clock> find_clock(const LaunchReadings& readings, const HwImportOptions& options,
                                const std::string& file) {
  if (options.clock_mhz) return Clock{*options.clock_mhz, "--clock-mhz"};
  for (std::string_view name : kMeasuredClocks) {
    auto it = readings.find(std::string(name));
    if (it == readings.end()) continue;
    const std::string& unit = it->second.unit;
    auto mhz = to_mhz(it->second.value, unit.empty() ? "hz" : unit);
    if (!mhz) {
      throw Error(
          fmt::format("{} {} has unit \"{}\"; expected a frequency (Hz, kHz, MHz, GHz, "
                      "cycle/second, cycle/usecond, cycle/nsecond)",
                      at(file, it->second.line), name, unit));
    }
    return Clock{*mhz, std::string(name)};
  }
  for (std::string_view name : kNominalClocksKhz) {
    auto it = readings.find(std::string(name));
    if (it == readings.end()) continue;
    const std::string& unit = it->second.unit;
    auto mhz = to_mhz(it->second.value, unit.empty() ? "khz" : unit);
    if (!mhz) {
      throw Error(fmt::format("{} {} has unit \"{}\"; expected kHz", at(file, it->second.line),
                              name, unit));
    }
    return Clock{*mhz, std::string(name)};
  }
  return std::nullopt;
}

CycleValue from_duration(const std::string& name, const MetricReading& reading,
                         const LaunchReadings& readings, const HwImportOptions& options,
                         const std::string& file) {
  auto ns = to_nanoseconds(reading.value, reading.unit);
  if (!ns) {
    throw Error(
        fmt::format("{} {} has unit \"{}\"; expected a time (nsecond, usecond, msecond, "
                    "second)",
                    at(file, reading.line), name, reading.unit));
  }
  auto clock = find_clock(readings, options, file);
  if (!clock) {
    throw Error(fmt::format(
        "{} {} is a duration and the file gives no clock to convert it to cycles (looked for "
        "{}, {}, {}, {}); pass --clock-mhz",
        at(file, reading.line), name, kMeasuredClocks[0], kMeasuredClocks[1], kNominalClocksKhz[0],
        kNominalClocksKhz[1]));
  }
  return {*ns * clock->mhz / 1000.0,
          fmt::format("{} x {:g} MHz ({})", name, clock->mhz, clock->source)};
}

CycleValue from_cycles(const std::string& name, const MetricReading& reading,
                       const std::string& file) {
  auto cycles = to_cycles(reading.value, reading.unit);
  if (!cycles) {
    throw Error(fmt::format("{} {} has unit \"{}\"; expected cycle (or Kcycle, Mcycle)",
                            at(file, reading.line), name, reading.unit));
  }
  return {*cycles, name};
}

}  // namespace

std::string canonical_ncu_metric(std::string_view name) {
  if (name == "Elapsed Cycles") return "gpc__cycles_elapsed.max";
  if (name == "Duration") return "gpu__time_duration.sum";
  if (name == "SM Frequency") return "gpc__cycles_elapsed.avg.per_second";
  return std::string(name);
}

bool is_wanted_ncu_metric(std::string_view canonical, const HwImportOptions& options) {
  return contains(kCycleMetrics, canonical) || contains(kDurationMetrics, canonical) ||
         contains(kMeasuredClocks, canonical) || contains(kNominalClocksKhz, canonical) ||
         (!options.metric.empty() && canonical == canonical_ncu_metric(options.metric));
}

std::optional<double> to_cycles(double value, std::string_view unit) {
  const std::string u = lower(unit);
  if (u.empty() || u == "cycle" || u == "cycles") return value;
  if (u == "kcycle") return value * 1e3;
  if (u == "mcycle") return value * 1e6;
  if (u == "gcycle") return value * 1e9;
  return std::nullopt;
}

std::optional<double> to_nanoseconds(double value, std::string_view unit) {
  const std::string u = lower(unit);
  if (u.empty() || u == "nsecond" || u == "ns") return value;
  if (u == "usecond" || u == "us") return value * 1e3;
  if (u == "msecond" || u == "ms") return value * 1e6;
  if (u == "second" || u == "s") return value * 1e9;
  return std::nullopt;
}

std::optional<double> to_mhz(double value, std::string_view unit) {
  const std::string u = lower(unit);
  if (u == "hz" || u == "cycle/second") return value * 1e-6;
  if (u == "khz" || u == "cycle/msecond") return value * 1e-3;
  if (u == "mhz" || u == "cycle/usecond") return value;
  if (u == "ghz" || u == "cycle/nsecond") return value * 1e3;
  return std::nullopt;
}

CycleValue ncu_launch_cycles(const LaunchReadings& readings, const HwImportOptions& options,
                             const std::string& file, std::size_t line) {
  if (!options.metric.empty()) {
    const std::string name = canonical_ncu_metric(options.metric);
    auto it = readings.find(name);
    if (it == readings.end()) {
      throw Error(fmt::format("{} this launch has no value for metric {} (--hw-metric)",
                              at(file, line), name));
    }
    const bool is_duration = contains(kDurationMetrics, name) ||
                             (!it->second.unit.empty() && to_nanoseconds(1, it->second.unit));
    if (is_duration) return from_duration(name, it->second, readings, options, file);
    return from_cycles(name, it->second, file);
  }
  for (std::string_view name : kCycleMetrics) {
    if (auto it = readings.find(std::string(name)); it != readings.end()) {
      return from_cycles(std::string(name), it->second, file);
    }
  }
  for (std::string_view name : kDurationMetrics) {
    if (auto it = readings.find(std::string(name)); it != readings.end()) {
      return from_duration(std::string(name), it->second, readings, options, file);
    }
  }
  throw Error(fmt::format(
      "{} this launch has none of the cycle metrics {}, nor a duration ({}, {}); profile with "
      "`ncu --csv --metrics gpc__cycles_elapsed.avg,sm__cycles_elapsed.avg,gpu__time_duration.sum`",
      at(file, line), fmt::join(kCycleMetrics, ", "), kDurationMetrics[0], kDurationMetrics[1]));
}

}  // namespace sassim::correlate
