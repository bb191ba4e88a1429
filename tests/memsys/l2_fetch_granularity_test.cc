// l2.fetch_granularity_bytes: what a read miss brings from DRAM, and which later reads
// of the line hit because of it.
#include <gtest/gtest.h>

#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

using testing::Rig;
using testing::small_config;
using testing::strided;

using testing::kDramLatency;
using testing::kL2HitRoundTrip;

config::GpuConfig with_fetch(std::uint32_t bytes) {
  config::GpuConfig c = small_config();
  c.mutable_l2()->set_fetch_granularity_bytes(bytes);
  return c;
}

double dram_read_bytes(Rig& rig) {
  return rig.stats().sum("gpu.dram.channel[", "read_bytes");
}

// One thread reads sector 0, then (from the other SM, past its L1) sectors 1 and 2 of
// line 0x1000; returns the three latencies and the DRAM bytes read.
struct Chase {
  Picos first = 0, neighbour = 0, next_block = 0;
  double bytes = 0;
};
Chase chase(const config::GpuConfig& config) {
  Rig rig(config);
  rig.sm(0).load(0, 1, std::vector<std::uint64_t>{0x1000});
  rig.run();
  rig.sm(1).load(rig.now(), 2, std::vector<std::uint64_t>{0x1020});
  rig.run();
  rig.sm(1).load(rig.now(), 3, std::vector<std::uint64_t>{0x1040});
  rig.run();
  return {rig.sm(0).latency(1), rig.sm(1).latency(2), rig.sm(1).latency(3), dram_read_bytes(rig)};
}

TEST(L2FetchGranularity, OneSectorByDefault) {
  const Chase c = chase(small_config());
  EXPECT_EQ(c.first, kL2HitRoundTrip + kDramLatency);
  EXPECT_EQ(c.neighbour, kL2HitRoundTrip + kDramLatency);
  EXPECT_EQ(c.next_block, kL2HitRoundTrip + kDramLatency);
  EXPECT_EQ(c.bytes, 3 * 32);
}

TEST(L2FetchGranularity, SixtyFourBytesBringTheNeighbouringSector) {
  const Chase c = chase(with_fetch(64));
  EXPECT_EQ(c.first, kL2HitRoundTrip + kDramLatency);
  EXPECT_EQ(c.neighbour, kL2HitRoundTrip) << "sector 1 came with sector 0";
  EXPECT_EQ(c.next_block, kL2HitRoundTrip + kDramLatency) << "sector 2 is in the next block";
  EXPECT_EQ(c.bytes, 2 * 64);
}

TEST(L2FetchGranularity, AWholeLineFillsEverySector) {
  const Chase c = chase(with_fetch(128));
  EXPECT_EQ(c.neighbour, kL2HitRoundTrip);
  EXPECT_EQ(c.next_block, kL2HitRoundTrip);
  EXPECT_EQ(c.bytes, 128);
}

TEST(L2FetchGranularity, EachMissingSectorBringsItsOwnBlock) {
  Rig rig(with_fetch(64));
  rig.sm(0).load(0, 1, std::vector<std::uint64_t>{0x1020, 0x1040});  // sectors 1 and 2
  rig.run();
  EXPECT_EQ(dram_read_bytes(rig), 128) << "blocks 0-1 and 2-3";
  rig.sm(1).load(rig.now(), 2, strided(0x1000, 4));
  rig.run();
  EXPECT_EQ(rig.sm(1).latency(2), kL2HitRoundTrip);
  EXPECT_EQ(dram_read_bytes(rig), 128);
}

TEST(L2FetchGranularity, ValidSectorsAreNotFetchedAgain) {
  Rig rig(with_fetch(128));
  rig.memory->memcpy_to_device(0x1000, 0x20);  // sector 0 of line 0x1000 is in the L2
  rig.sm(0).load(0, 1, std::vector<std::uint64_t>{0x1020});
  rig.run();
  EXPECT_EQ(dram_read_bytes(rig), 96) << "sectors 1-3";
}

TEST(L2FetchGranularity, AReadOfASectorOnItsWayWaitsForTheFillWithoutAnotherFetch) {
  Rig rig(with_fetch(64));
  rig.sm(0).load(0, 1, std::vector<std::uint64_t>{0x1000});
  rig.sm(1).load(0, 2, std::vector<std::uint64_t>{0x1020});  // same cycle: the fill is pending
  rig.run();
  EXPECT_EQ(rig.sm(0).latency(1), kL2HitRoundTrip + kDramLatency);
  EXPECT_EQ(rig.sm(1).latency(2), kL2HitRoundTrip + kDramLatency);
  EXPECT_EQ(dram_read_bytes(rig), 64);
}

}  // namespace
}  // namespace sassim::memsys
