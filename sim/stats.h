#pragma once
// The stats registry: the names of every counter the units report are gathered once
// into a schema (name -> index); a snapshot is then one number per counter, recorded
// without building a name, and a kernel's stats are the difference of two snapshots.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ground/unit.h"

namespace sassim::sim {

// The counters of a fixed set of units: their names sorted as std::string compares
// them (the order of the results file's stats/names), a counter's index being its
// position. Units report the same counters in the same order every time, so the n-th
// value reported belongs to counter slots()[n] (a name reported twice is one counter,
// its values added up).
class StatsSchema {
 public:
  // From the names in the order the units reported them.
  explicit StatsSchema(const std::vector<std::string>& reported);

  std::size_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }
  const std::string& name(std::uint32_t index) const { return names_[index]; }
  std::optional<std::uint32_t> find(std::string_view name) const;
  // Indices, ascending, of the counters whose name starts with prefix and ends with
  // suffix ("gpu.sm[", ".l1.sector_hits").
  std::vector<std::uint32_t> matching(std::string_view prefix, std::string_view suffix) const;
  const std::vector<std::uint32_t>& slots() const { return slots_; }

 private:
  std::vector<std::string> names_;
  std::vector<std::uint32_t> slots_;
};

// Every counter's value at one moment, by index in the schema.
struct StatsSnapshot {
  std::shared_ptr<const StatsSchema> schema;
  std::vector<double> values;

  // this - earlier, counter by counter (both of one schema).
  StatsSnapshot minus(const StatsSnapshot& earlier) const;
  // Sum over the counters at `indices`, in that order.
  double sum(std::span<const std::uint32_t> indices) const;
  // 0 for a name the schema does not hold.
  double get(std::string_view name) const;
};

// Collects the names of what the units report, in order, to build a schema.
class StatNameSink final : public StatSink {
 public:
  void add(std::string_view name, double) override { names_.emplace_back(name); }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
};

// Records what the units report into a snapshot of the schema they were named by: the
// n-th value goes to counter slots()[n]; no name is built.
class StatValueSink final : public StatSink {
 public:
  // `out` starts at zero for every counter of `schema`.
  StatValueSink(std::shared_ptr<const StatsSchema> schema, StatsSnapshot& out);
  void add(std::string_view, double value) override { put(value); }
  void add_counter(std::string_view, std::string_view, double value) override { put(value); }
  void add_counter(std::string_view, std::string_view, std::string_view, double value) override {
    put(value);
  }
  // Throws when the units reported a different number of values than when the schema
  // was built (a unit whose counters changed since).
  void check_complete() const;

 private:
  void put(double value) {
    if (next_ < slots_.size()) out_[slots_[next_]] += value;
    ++next_;
  }
  std::span<const std::uint32_t> slots_;
  std::span<double> out_;
  std::size_t next_ = 0;
};

}  // namespace sassim::sim
