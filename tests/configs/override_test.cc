// --set overrides by reflection: scalars of every type, nested messages, the map, errors.
#include <string>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "configs/config_loader.h"
#include "tests/configs/error_matchers.h"

namespace sassim::config {
namespace {

using testing::error_of;
using ::testing::HasSubstr;

class Override : public ::testing::Test {
 protected:
  GpuConfig config_ = load_config("a100");
};

TEST_F(Override, TopLevelScalar) {
  apply_override(config_, "num_sms=54");
  EXPECT_EQ(config_.num_sms(), 54u);
}

TEST_F(Override, NestedScalar) {
  apply_override(config_, "sm.units.fp32.latency_cycles=5");
  EXPECT_EQ(config_.sm().units().fp32().latency_cycles(), 5u);
  EXPECT_EQ(config_.sm().units().fp32().initiation_interval_cycles(), 2u);  // sibling kept
}

TEST_F(Override, EveryScalarTypeOfTheSchema) {
  apply_override(config_, "clocks.core_mhz=1234.5");       // double
  apply_override(config_, "l2.size_bytes=83886080");       // uint64
  apply_override(config_, "sm.scheduler.policy=lrr");      // string
  apply_override(config_, "l1.cache_global_loads=false");  // bool
  apply_override(config_, "dram.latency_ns=1e2");          // double, exponent form
  EXPECT_DOUBLE_EQ(config_.clocks().core_mhz(), 1234.5);
  EXPECT_EQ(config_.l2().size_bytes(), 83886080u);
  EXPECT_EQ(config_.sm().scheduler().policy(), "lrr");
  EXPECT_FALSE(config_.l1().cache_global_loads());
  EXPECT_DOUBLE_EQ(config_.dram().latency_ns(), 100.0);
  apply_override(config_, "l1.cache_global_loads=true");
  EXPECT_TRUE(config_.l1().cache_global_loads());
}

TEST_F(Override, CreatesAbsentMessages) {
  GpuConfig empty;
  apply_override(empty, "simulation.deadlock_cycles=5000");
  EXPECT_TRUE(empty.has_simulation());
  EXPECT_EQ(empty.simulation().deadlock_cycles(), 5000u);
}

TEST_F(Override, MapEntryIsAddedThenReplaced) {
  apply_override(config_, "sm.opcode_latency_cycles.IMAD=5");
  EXPECT_EQ(config_.sm().opcode_latency_cycles().at("IMAD"), 5u);
  apply_override(config_, "sm.opcode_latency_cycles.IMAD=7");
  EXPECT_EQ(config_.sm().opcode_latency_cycles().at("IMAD"), 7u);
  EXPECT_EQ(config_.sm().opcode_latency_cycles().size(), 1u);
}

TEST_F(Override, MapEntryOfAPresetIsReplaced) {
  GpuConfig h100 = load_config("h100");
  apply_override(h100, "sm.opcode_latency_cycles.HGMMA=64");
  EXPECT_EQ(h100.sm().opcode_latency_cycles().at("HGMMA"), 64u);
  EXPECT_EQ(h100.sm().opcode_latency_cycles().size(), 1u);
}

TEST_F(Override, UnknownSegmentListsTheFields) {
  const std::string message =
      error_of([&] { apply_override(config_, "sm.unitz.fp32.latency_cycles=5"); });
  EXPECT_THAT(message, HasSubstr("--set sm.unitz.fp32.latency_cycles=5: SmConfig has no field "
                                 "'unitz' (fields: sub_cores, max_warps, "));
  EXPECT_THAT(message, HasSubstr("opcode_latency_cycles"));
}

TEST_F(Override, UnknownTopLevelField) {
  EXPECT_THAT(error_of([&] { apply_override(config_, "num_smz=5"); }),
              HasSubstr("GpuConfig has no field 'num_smz'"));
}

TEST_F(Override, BadUnsignedValue) {
  EXPECT_THAT(error_of([&] { apply_override(config_, "sm.max_warps=abc"); }),
              HasSubstr("--set sm.max_warps=abc: expected an unsigned integer, got 'abc'"));
  EXPECT_THAT(error_of([&] { apply_override(config_, "sm.max_warps=-3"); }),
              HasSubstr("expected an unsigned integer, got '-3'"));
  EXPECT_THAT(error_of([&] { apply_override(config_, "sm.max_warps=4294967296"); }),
              HasSubstr("no larger than 4294967295"));
  EXPECT_THAT(error_of([&] { apply_override(config_, "sm.max_warps="); }),
              HasSubstr("expected an unsigned integer, got ''"));
}

TEST_F(Override, BadNumberAndBoolValues) {
  EXPECT_THAT(error_of([&] { apply_override(config_, "clocks.core_mhz=fast"); }),
              HasSubstr("expected a number, got 'fast'"));
  EXPECT_THAT(error_of([&] { apply_override(config_, "l1.cache_global_loads=yes"); }),
              HasSubstr("expected true or false, got 'yes'"));
  EXPECT_THAT(error_of([&] { apply_override(config_, "sm.opcode_latency_cycles.IMAD=x"); }),
              HasSubstr("expected an unsigned integer, got 'x'"));
}

TEST_F(Override, MissingEquals) {
  EXPECT_THAT(error_of([&] { apply_override(config_, "sm.max_warps"); }),
              HasSubstr("--set sm.max_warps: expected path=value"));
}

TEST_F(Override, PathThroughAScalar) {
  EXPECT_THAT(error_of([&] { apply_override(config_, "num_sms.count=5"); }),
              HasSubstr("'num_sms' is an unsigned integer, it has no field 'count'"));
}

TEST_F(Override, MessageNeedsAField) {
  EXPECT_THAT(error_of([&] { apply_override(config_, "sm=5"); }),
              HasSubstr("'sm' is a SmConfig message; set one of its fields"));
}

TEST_F(Override, MapNeedsExactlyOneKey) {
  EXPECT_THAT(error_of([&] { apply_override(config_, "sm.opcode_latency_cycles=5"); }),
              HasSubstr("is a map; name one key"));
  EXPECT_THAT(error_of([&] { apply_override(config_, "sm.opcode_latency_cycles.A.B=5"); }),
              HasSubstr("is a map; name one key"));
}

TEST_F(Override, EmptySegment) {
  EXPECT_THAT(error_of([&] { apply_override(config_, "sm..max_warps=5"); }),
              HasSubstr("empty field name"));
}

TEST_F(Override, UnsignedListIsReplacedOrCleared) {
  config_ = load_config("h100");
  apply_override(config_, "cluster.gpc_sms=60,54");
  EXPECT_THAT(config_.cluster().gpc_sms(), ::testing::ElementsAre(60u, 54u));
  apply_override(config_, "cluster.gpc_sms=");
  EXPECT_TRUE(config_.cluster().gpc_sms().empty());
  for (const char* bad : {"cluster.gpc_sms=16,,16", "cluster.gpc_sms=16,", "cluster.gpc_sms=a"}) {
    EXPECT_THAT(error_of([&] { apply_override(config_, bad); }),
                HasSubstr("expected a comma-separated list of unsigned integers (empty: none)"))
        << bad;
  }
}

// An entry of a list of messages is named by its index: a sweep can vary one tensor
// operation's throughput.
TEST_F(Override, ListEntryByIndex) {
  GpuConfig h200 = load_config("h200");
  ASSERT_EQ(h200.sm().tensor_ops(2).opcode(), "HGMMA.64x256x16.F32.BF16");
  apply_override(h200, "sm.tensor_ops[2].initiation_interval_cycles_per_n=0.25");
  EXPECT_DOUBLE_EQ(h200.sm().tensor_ops(2).initiation_interval_cycles_per_n(), 0.25);
  EXPECT_DOUBLE_EQ(h200.sm().tensor_ops(1).initiation_interval_cycles_per_n(), 0.5);
  EXPECT_DOUBLE_EQ(h200.sm().tensor_ops(2).latency_cycles_per_n(), 0.5);  // sibling kept
  const int size = h200.sm().tensor_ops_size();
  EXPECT_THAT(error_of([&] {
                apply_override(h200, fmt::format("sm.tensor_ops[{}].latency_cycles=1", size));
              }),
              HasSubstr(fmt::format("'tensor_ops' has {} entries in this config; [{}] is none",
                                    size, size)));
  EXPECT_THAT(error_of([&] { apply_override(h200, "sm.tensor_ops[2]=1"); }),
              HasSubstr("'tensor_ops[2]' is a message; set one of its fields"));
  EXPECT_THAT(error_of([&] { apply_override(h200, "sm.tensor_ops.latency_cycles=1"); }),
              HasSubstr("'tensor_ops' is a list; name one entry: tensor_ops[INDEX].<field>"));
  for (const char* bad : {"sm.tensor_ops[x].latency_cycles=1", "sm.tensor_ops[-1].latency_cycles=1",
                          "sm.tensor_ops[1.latency_cycles=1"}) {
    EXPECT_THAT(error_of([&] { apply_override(h200, bad); }),
                HasSubstr("expected NAME[INDEX] with a whole-number index"))
        << bad;
  }
  EXPECT_THAT(error_of([&] { apply_override(h200, "sm.units[0].latency_cycles=1"); }),
              HasSubstr("only a list of messages takes an index"));
}

TEST_F(Override, BaseCannotBeOverridden) {
  EXPECT_THAT(error_of([&] { apply_override(config_, "base=h100"); }),
              HasSubstr("'base' cannot be overridden"));
}

}  // namespace
}  // namespace sassim::config
