#pragma once
// One kernel's counters: the change of every counter during the kernel, kept as the
// nonzero values by counter index (a small kernel on a large GPU moves a few hundred of
// its ten thousand counters). Names are looked up in the schema only when asked for.
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "sim/stats.h"

namespace sassim::sim {

class KernelStats {
 public:
  KernelStats() = default;  // no counters
  explicit KernelStats(const StatsSnapshot& change);

  // Null for a default-constructed value.
  const std::shared_ptr<const StatsSchema>& schema() const { return schema_; }
  // 0 for a counter that did not change or that the schema does not hold.
  double get(std::string_view name) const;
  // Sum of every counter whose name starts with prefix and ends with suffix
  // ("gpu.sm[", ".l1.sector_hits"), in name order.
  double sum(std::string_view prefix, std::string_view suffix) const;
  // Every counter of the schema, zeros included, by index.
  std::vector<double> dense() const;
  // The counters that changed: indices ascending, and their values.
  const std::vector<std::uint32_t>& changed_indices() const { return indices_; }
  const std::vector<double>& changed_values() const { return values_; }

  // Same counter names and the same value (bit for bit) of every one.
  friend bool operator==(const KernelStats& a, const KernelStats& b);

 private:
  std::shared_ptr<const StatsSchema> schema_;
  std::vector<std::uint32_t> indices_;
  std::vector<double> values_;
};

}  // namespace sassim::sim
