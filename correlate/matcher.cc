#include "correlate/matcher.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "correlate/kernel_names.h"

namespace sassim::correlate {
namespace {

std::string key_of(const std::string& name, NameLevel level) {
  return level == NameLevel::kFull ? full_kernel_name(name) : base_kernel_name(name);
}

std::string launches(std::size_t n) {
  return fmt::format("{} launch{}", n, n == 1 ? "" : "es");
}

}  // namespace

MatchResult match_kernels(const std::vector<SimKernel>& sim, const std::vector<HwKernel>& hw) {
  MatchResult result;
  for (const HwKernel& k : hw) {
    if (!has_signature(k.name)) result.level = NameLevel::kBase;
  }
  // Hardware launches per key, in order.
  std::map<std::string, std::vector<std::size_t>> hw_by_key;
  for (std::size_t i = 0; i < hw.size(); ++i) {
    hw_by_key[key_of(hw[i].name, result.level)].push_back(i);
  }
  std::map<std::string, std::size_t> sim_count;
  std::map<std::string, std::set<std::string>> sim_full_names;  // per key, for notes
  for (const SimKernel& s : sim) {
    const std::string key = key_of(s.name, result.level);
    const std::size_t ordinal = sim_count[key]++;
    sim_full_names[key].insert(full_kernel_name(s.name));
    auto it = hw_by_key.find(key);
    if (it == hw_by_key.end()) {
      result.unmatched_sim.push_back({s, ordinal, "no hardware launch of this kernel"});
    } else if (ordinal >= it->second.size()) {
      result.unmatched_sim.push_back(
          {s, ordinal, fmt::format("the hardware data has only {}", launches(it->second.size()))});
    } else {
      result.matched.push_back({s, hw[it->second[ordinal]], key, ordinal});
    }
  }
  // Unmatched hardware launches, in the order of the input files.
  std::map<std::size_t, UnmatchedHw> unmatched_hw;
  for (const auto& [key, indices] : hw_by_key) {
    const auto it = sim_count.find(key);
    const std::size_t simulated = it == sim_count.end() ? 0 : it->second;
    for (std::size_t ordinal = simulated; ordinal < indices.size(); ++ordinal) {
      unmatched_hw[indices[ordinal]] = {
          hw[indices[ordinal]], ordinal,
          simulated == 0 ? std::string("no simulated launch of this kernel")
                         : fmt::format("the simulation has only {}", launches(simulated))};
    }
  }
  for (auto& [index, u] : unmatched_hw) result.unmatched_hw.push_back(std::move(u));
  if (result.level == NameLevel::kBase) {
    result.notes.push_back(
        "some hardware kernel names are bare function names, so kernels were matched by base "
        "name (no return type, namespaces, template arguments or parameters)");
    for (const auto& [key, names] : sim_full_names) {
      if (names.size() > 1) {
        result.notes.push_back(fmt::format(
            "{} distinct simulated kernels share the base name \"{}\"; launch order decides "
            "their pairing",
            names.size(), key));
      }
    }
  }
  return result;
}

}  // namespace sassim::correlate
