#include "correlate/correlate.h"

#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "correlate/hw_import.h"
#include "correlate/kernel_names.h"
#include "ground/error.h"

namespace sassim::correlate {
namespace {

// Up to `limit` distinct names, demangled, for an error message.
template <typename Range, typename NameOf>
std::string some_names(const Range& items, NameOf name_of, std::size_t limit) {
  std::set<std::string> names;
  for (const auto& item : items) names.insert(display_name(name_of(item)));
  std::vector<std::string> shown;
  for (const std::string& n : names) {
    if (shown.size() == limit) break;
    shown.push_back("\"" + n + "\"");
  }
  return fmt::format("{}{}", fmt::join(shown, ", "), names.size() > limit ? ", ..." : "");
}

}  // namespace

std::string display_name(const std::string& name) {
  return demangle(name);
}

double relative_error_percent(const MatchedKernel& m) {
  return 100.0 * relative_error(m.sim.cycles, m.hw.cycles);
}

Correlation correlate(const CorrelateOptions& options) {
  if (options.metric != "cycles") {
    throw Error(fmt::format("unknown --metric \"{}\"; supported: cycles", options.metric));
  }
  if (options.sim_files.empty()) throw Error("no simulation results given (--sim)");
  if (options.hw_files.empty()) throw Error("no hardware measurements given (--hw)");
  Correlation c;
  c.metric = options.metric;
  std::vector<SimKernel> sim;
  for (const std::string& file : options.sim_files) {
    c.sims.push_back(read_sim_results(file, options.sweep));
    sim.insert(sim.end(), c.sims.back().kernels.begin(), c.sims.back().kernels.end());
  }
  std::vector<HwKernel> hw;
  for (const std::string& file : options.hw_files) {
    c.hws.push_back(import_hw_file(file, options.hw));
    hw.insert(hw.end(), c.hws.back().kernels.begin(), c.hws.back().kernels.end());
  }
  c.match = match_kernels(sim, hw);
  if (c.match.matched.empty()) {
    throw Error(fmt::format(
        "no simulated kernel launch matched a hardware launch (names compared {}): simulated "
        "{}; hardware {}",
        c.match.level == NameLevel::kFull ? "in full, demangled" : "by base name",
        some_names(
            sim, [](const SimKernel& k) { return k.name; }, 5),
        some_names(
            hw, [](const HwKernel& k) { return k.name; }, 5)));
  }
  std::vector<double> sim_values, hw_values;
  for (const MatchedKernel& m : c.match.matched) {
    sim_values.push_back(m.sim.cycles);
    hw_values.push_back(m.hw.cycles);
  }
  c.errors = summarize_errors(sim_values, hw_values);
  return c;
}

}  // namespace sassim::correlate
