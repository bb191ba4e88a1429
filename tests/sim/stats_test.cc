// The stats registry: a schema names the counters once, snapshots are numbers by
// index, a kernel's stats are the nonzero changes between two snapshots.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ground/error.h"
#include "sim/kernel_stats.h"
#include "sim/stats.h"

namespace sassim::sim {
namespace {

// Two units' counters, reported as the simulator's units do.
struct FakeUnits {
  double hits = 0, misses = 0, fp32 = 0, l2_hits = 0;
  bool extra = false;  // reports one more counter (a unit that changed)

  void report(StatSink& sink) const {
    sink.add_counter("gpu.sm[1]", "l1.hits", hits);
    sink.add_counter("gpu.sm[0]", "l1.hits", hits * 2);
    sink.add_counter("gpu.sm[1]", "flops", "fp32", fp32);
    sink.add("gpu.l2.slice[0].sector_hits", l2_hits);
    sink.add_counter("gpu.sm[1]", "l1.misses", misses);
    sink.add_counter("gpu.sm[1]", "l1.hits", 1);  // the same name again: added up
    if (extra) sink.add_counter("gpu.noc", "packets", 1);
  }
};

std::shared_ptr<const StatsSchema> schema_of(const FakeUnits& units) {
  StatNameSink names;
  units.report(names);
  return std::make_shared<const StatsSchema>(names.names());
}

StatsSnapshot take(const std::shared_ptr<const StatsSchema>& schema, const FakeUnits& units) {
  StatsSnapshot s;
  StatValueSink sink(schema, s);
  units.report(sink);
  sink.check_complete();
  return s;
}

TEST(StatsSchema, NamesAreSortedOnceAndSlotsFollowTheReportOrder) {
  const auto schema = schema_of(FakeUnits{});
  const std::vector<std::string> expected = {"gpu.l2.slice[0].sector_hits", "gpu.sm[0].l1.hits",
                                             "gpu.sm[1].flops.fp32", "gpu.sm[1].l1.hits",
                                             "gpu.sm[1].l1.misses"};
  EXPECT_EQ(schema->names(), expected);
  EXPECT_EQ(schema->slots(), (std::vector<std::uint32_t>{3, 1, 2, 0, 4, 3}));
  EXPECT_EQ(schema->find("gpu.sm[1].l1.misses"), 4u);
  EXPECT_EQ(schema->find("gpu.sm[1].l1"), std::nullopt);
  EXPECT_EQ(schema->find("gpu.sm[2].l1.hits"), std::nullopt);
  EXPECT_EQ(schema->matching("gpu.sm[", ".l1.hits"), (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(schema->matching("gpu.", "hits"), (std::vector<std::uint32_t>{0, 1, 3}));
  EXPECT_TRUE(schema->matching("gpu.dram", "").empty());
}

TEST(StatsSnapshot, RecordsValuesByIndexAndSubtractsCounterByCounter) {
  FakeUnits units;
  const auto schema = schema_of(units);
  units.hits = 5;
  units.misses = 2;
  const StatsSnapshot before = take(schema, units);
  EXPECT_EQ(before.values, (std::vector<double>{0, 10, 0, 6, 2}));
  units.hits = 8;    // three more hits
  units.fp32 = 0.5;  // a counter that starts moving between the snapshots
  units.l2_hits = 4;
  const StatsSnapshot after = take(schema, units);
  const StatsSnapshot change = after.minus(before);
  EXPECT_EQ(change.values, (std::vector<double>{4, 6, 0.5, 3, 0}));
  EXPECT_EQ(change.get("gpu.sm[1].l1.hits"), 3);
  EXPECT_EQ(change.get("gpu.sm[7].l1.hits"), 0);
  const std::vector<std::uint32_t> l1 = schema->matching("gpu.sm[", ".l1.hits");
  EXPECT_EQ(change.sum(l1), 9);
}

TEST(StatsSnapshot, UnitsThatReportOtherCountersThanTheSchemaAreAnError) {
  FakeUnits units;
  const auto schema = schema_of(units);
  units.extra = true;
  StatsSnapshot s;
  StatValueSink sink(schema, s);
  units.report(sink);
  EXPECT_THROW(sink.check_complete(), Error);
  StatsSnapshot other{schema_of(units), {}};
  EXPECT_THROW((void)take(schema, FakeUnits{}).minus(other), Error);
}

TEST(KernelStats, KeepsTheChangedCountersAndLooksNamesUpOnlyWhenAsked) {
  FakeUnits units;
  const auto schema = schema_of(units);
  const StatsSnapshot before = take(schema, units);
  units.hits = 3;
  units.fp32 = 64;
  const KernelStats stats(take(schema, units).minus(before));
  EXPECT_EQ(stats.changed_indices(), (std::vector<std::uint32_t>{1, 2, 3}));
  EXPECT_EQ(stats.changed_values(), (std::vector<double>{6, 64, 3}));
  EXPECT_EQ(stats.get("gpu.sm[0].l1.hits"), 6);
  EXPECT_EQ(stats.get("gpu.sm[1].flops.fp32"), 64);
  EXPECT_EQ(stats.get("gpu.sm[1].l1.misses"), 0);  // unchanged
  EXPECT_EQ(stats.get("gpu.nothing"), 0);
  EXPECT_EQ(stats.sum("gpu.sm[", ".l1.hits"), 9);
  EXPECT_EQ(stats.sum("gpu.sm[1]", ""), 67);
  EXPECT_EQ(stats.sum("gpu.l2", "hits"), 0);
  EXPECT_EQ(stats.dense(), (std::vector<double>{0, 6, 64, 3, 0}));
  EXPECT_EQ(KernelStats().get("gpu.sm[0].l1.hits"), 0);
  EXPECT_TRUE(KernelStats().dense().empty());
}

TEST(KernelStats, EqualWhenNamesAndValuesAreTheSame) {
  FakeUnits units;
  const auto schema = schema_of(units);
  const auto same_names = schema_of(units);  // another schema of the same counters
  const StatsSnapshot zero = take(schema, units);
  units.hits = 1;
  const KernelStats a(take(schema, units).minus(zero));
  const KernelStats b(take(same_names, units).minus(take(same_names, FakeUnits{})));
  EXPECT_EQ(a, b);
  units.misses = 1;
  const KernelStats c(take(schema, units).minus(zero));
  EXPECT_FALSE(a == c);
  units.extra = true;
  const auto more_names = schema_of(units);
  units.misses = 0;
  const KernelStats d(take(more_names, units).minus(take(more_names, FakeUnits{.extra = true})));
  EXPECT_FALSE(a == d) << "one more counter name, though it holds the same change";
}

TEST(StatSink, JoinsTheNamePartsWithDots) {
  StatNameSink names;
  names.add_counter("gpu.sm[2]", "ctas", 1);
  names.add_counter("gpu.sm[2]", "warp_cycles", "wait", 1);
  names.add_counter("gpu.sm[2]", "", "busy_cycles", 1);
  EXPECT_EQ(names.names(), (std::vector<std::string>{"gpu.sm[2].ctas", "gpu.sm[2].warp_cycles.wait",
                                                     "gpu.sm[2].busy_cycles"}));
}

}  // namespace
}  // namespace sassim::sim
