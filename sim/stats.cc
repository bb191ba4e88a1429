#include "sim/stats.h"

namespace sassim::sim {

StatsSnapshot StatsSnapshot::minus(const StatsSnapshot& earlier) const {
  StatsSnapshot out;
  for (const auto& [name, value] : values_) {
    auto it = earlier.values_.find(name);
    out.values_[name] = value - (it == earlier.values_.end() ? 0.0 : it->second);
  }
  return out;
}

double StatsSnapshot::sum(std::string_view prefix, std::string_view suffix) const {
  double total = 0;
  for (auto it = values_.lower_bound(std::string(prefix)); it != values_.end(); ++it) {
    const std::string& name = it->first;
    if (name.compare(0, prefix.size(), prefix) != 0) break;
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      total += it->second;
    }
  }
  return total;
}

double StatsSnapshot::get(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? 0.0 : it->second;
}

}  // namespace sassim::sim
