#include "sim/stats.h"

#include <algorithm>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::sim {

StatsSchema::StatsSchema(const std::vector<std::string>& reported) : names_(reported) {
  std::sort(names_.begin(), names_.end());
  names_.erase(std::unique(names_.begin(), names_.end()), names_.end());
  slots_.reserve(reported.size());
  for (const std::string& name : reported) slots_.push_back(*find(name));
}

std::optional<std::uint32_t> StatsSchema::find(std::string_view name) const {
  auto it = std::lower_bound(names_.begin(), names_.end(), name,
                             [](const std::string& a, std::string_view b) { return a < b; });
  if (it == names_.end() || *it != name) return std::nullopt;
  return static_cast<std::uint32_t>(it - names_.begin());
}

std::vector<std::uint32_t> StatsSchema::matching(std::string_view prefix,
                                                 std::string_view suffix) const {
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < names_.size(); ++i) {
    const std::string_view name = names_[i];
    if (name.starts_with(prefix) && name.ends_with(suffix)) {
      out.push_back(static_cast<std::uint32_t>(i));
    }
  }
  return out;
}

StatsSnapshot StatsSnapshot::minus(const StatsSnapshot& earlier) const {
  if (earlier.schema != schema) throw Error("internal: snapshots of different stats schemas");
  StatsSnapshot out{schema, std::vector<double>(values.size())};
  for (std::size_t i = 0; i < values.size(); ++i) out.values[i] = values[i] - earlier.values[i];
  return out;
}

double StatsSnapshot::sum(std::span<const std::uint32_t> indices) const {
  double total = 0;
  for (std::uint32_t i : indices) total += values[i];
  return total;
}

double StatsSnapshot::get(std::string_view name) const {
  const std::optional<std::uint32_t> i = schema ? schema->find(name) : std::nullopt;
  return i ? values[*i] : 0.0;
}

StatValueSink::StatValueSink(std::shared_ptr<const StatsSchema> schema, StatsSnapshot& out)
    : slots_(schema->slots()) {
  out.values.assign(schema->size(), 0.0);
  out.schema = std::move(schema);
  out_ = out.values;
}

void StatValueSink::check_complete() const {
  if (next_ != slots_.size()) {
    throw Error(fmt::format("internal: the units reported {} counters, the stats schema holds {}",
                            next_, slots_.size()));
  }
}

}  // namespace sassim::sim
