#pragma once
// The stats registry: every unit reports its plain counters under hierarchical
// names into a snapshot; a kernel's stats are the difference of two snapshots.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "memsys/unit.h"

namespace sassim::sim {

class StatsSnapshot final : public StatSink {
 public:
  void add(std::string_view name, double value) override { values_[std::string(name)] += value; }
  const std::map<std::string, double>& values() const { return values_; }
  // this - earlier, name by name (names missing from `earlier` count as 0).
  StatsSnapshot minus(const StatsSnapshot& earlier) const;
  // Sum of every stat whose name starts with prefix and ends with suffix
  // ("gpu.sm[", ".l1.sector_hits").
  double sum(std::string_view prefix, std::string_view suffix) const;
  double get(const std::string& name) const;

 private:
  std::map<std::string, double> values_;
};

}  // namespace sassim::sim
