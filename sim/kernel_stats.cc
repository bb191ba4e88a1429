#include "sim/kernel_stats.h"

#include <algorithm>
#include <bit>

namespace sassim::sim {
namespace {

// Kept unless it is +0.0, which is what an absent counter reads as.
bool changed(double value) {
  return std::bit_cast<std::uint64_t>(value) != 0;
}

}  // namespace

KernelStats::KernelStats(const StatsSnapshot& change) : schema_(change.schema) {
  for (std::size_t i = 0; i < change.values.size(); ++i) {
    if (changed(change.values[i])) {
      indices_.push_back(static_cast<std::uint32_t>(i));
      values_.push_back(change.values[i]);
    }
  }
  indices_.shrink_to_fit();
  values_.shrink_to_fit();
}

double KernelStats::get(std::string_view name) const {
  if (!schema_) return 0.0;
  const std::optional<std::uint32_t> index = schema_->find(name);
  if (!index) return 0.0;
  auto it = std::lower_bound(indices_.begin(), indices_.end(), *index);
  return it == indices_.end() || *it != *index
             ? 0.0
             : values_[static_cast<std::size_t>(it - indices_.begin())];
}

double KernelStats::sum(std::string_view prefix, std::string_view suffix) const {
  // Unchanged counters add +0.0, which leaves the total as it is.
  double total = 0;
  for (std::size_t k = 0; k < indices_.size(); ++k) {
    const std::string_view name = schema_->name(indices_[k]);
    if (name.starts_with(prefix) && name.ends_with(suffix)) total += values_[k];
  }
  return total;
}

std::vector<double> KernelStats::dense() const {
  std::vector<double> out(schema_ ? schema_->size() : 0, 0.0);
  for (std::size_t k = 0; k < indices_.size(); ++k) out[indices_[k]] = values_[k];
  return out;
}

bool operator==(const KernelStats& a, const KernelStats& b) {
  const auto names = [](const KernelStats& s) {
    return s.schema_ ? s.schema_->names() : std::vector<std::string>{};
  };
  if (a.schema_ != b.schema_ && names(a) != names(b)) return false;
  if (a.indices_ != b.indices_ || a.values_.size() != b.values_.size()) return false;
  for (std::size_t k = 0; k < a.values_.size(); ++k) {
    if (std::bit_cast<std::uint64_t>(a.values_[k]) != std::bit_cast<std::uint64_t>(b.values_[k]))
      return false;
  }
  return true;
}

}  // namespace sassim::sim
