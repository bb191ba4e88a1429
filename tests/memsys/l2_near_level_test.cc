// The near slice as a cache level of its own for far lines
// (interconnect.near_slice_serves_far_reads): exact round trips with mock SMs.
#include <gtest/gtest.h>

#include <string>

#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

using testing::kCycle;
using testing::Rig;
using testing::small_config;
using testing::strided;

constexpr Picos kNearRoundTrip = testing::kL2HitRoundTrip;
constexpr std::uint32_t kFar = 7;  // far_partition_latency_cycles, each way
constexpr Picos kFarRoundTrip = kNearRoundTrip + 2 * kFar * kCycle;
// A far miss with the near level: the far round trip and the near slice's one cycle
// handing the fetched data on.
constexpr Picos kFarMiss = kFarRoundTrip + kCycle;
// Linear hash over 4 slices: line 0x10000 / 128 = 512 is homed in slice 0 (partition 0,
// near SM 0); SM 1 (partition 1) reads it through slice 2, the first of partition 1.
constexpr std::uint64_t kLine = 0x10000;

config::GpuConfig near_level(bool on) {
  config::GpuConfig c = small_config();
  c.mutable_interconnect()->set_l2_partitions(2);
  c.mutable_interconnect()->set_far_partition_latency_cycles(kFar);
  c.mutable_interconnect()->set_replicate_far_reads(true);
  c.mutable_interconnect()->set_near_slice_serves_far_reads(on);
  return c;
}

// SM 1 reads the line (in the L2, as cudaMemcpy leaves it) twice, one read after the other.
Rig two_far_reads(bool on) {
  Rig rig(near_level(on));
  rig.memory->memcpy_to_device(kLine, 128);
  rig.sm(1).load_l1_bypass(0, 1, strided(kLine, 4));
  rig.run();
  rig.sm(1).load_l1_bypass(rig.now(), 2, strided(kLine, 4));
  rig.run();
  return rig;
}

TEST(L2NearLevel, AFarMissTakesTheFarRoundTripAndTheNextReadIsServedNear) {
  Rig rig = two_far_reads(true);
  EXPECT_EQ(rig.sm(1).latency(1), kFarMiss);
  EXPECT_EQ(rig.sm(1).latency(2), kNearRoundTrip);
  const auto stats = rig.stats();
  // Slice 2 looked both reads up (a miss, then a hit) and fetched the line once.
  EXPECT_EQ(stats.get("gpu.l2.slice[2].sector_accesses"), 8);
  EXPECT_EQ(stats.get("gpu.l2.slice[2].sector_hits"), 4);
  EXPECT_EQ(stats.get("gpu.l2.slice[2].fetched_sectors"), 4);
  EXPECT_EQ(stats.get("gpu.l2.slice[0].sector_accesses"), 4) << "the home slice: the fetch";
  EXPECT_EQ(stats.get("gpu.l2.slice[2].passed_sectors"), 0);
}

TEST(L2NearLevel, OffTheHomeSliceServesBothReadsAtTheSameLatencies) {
  Rig rig = two_far_reads(false);
  EXPECT_EQ(rig.sm(1).latency(1), kFarRoundTrip);
  EXPECT_EQ(rig.sm(1).latency(2), kNearRoundTrip);
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.l2.slice[0].sector_accesses"), 8);
  EXPECT_EQ(stats.get("gpu.l2.slice[2].sector_accesses"), 0);
  EXPECT_EQ(stats.get("gpu.l2.slice[2].fetched_sectors"), -1);  // not reported
}

TEST(L2NearLevel, ReadsOfOnePartitionMeetInTheNearSlicesMshr) {
  for (const bool on : {true, false}) {
    Rig rig(near_level(on));
    rig.memory->memcpy_to_device(kLine, 128);
    rig.sm(1).load_l1_bypass(0, 1, strided(kLine, 4));
    rig.sm(1).load_l1_bypass(0, 2, strided(kLine, 4));
    rig.run();
    EXPECT_EQ(rig.sm(1).latency(1), on ? kFarMiss : kFarRoundTrip) << on;
    // On, the home slice sees one fetch for both; off, both reads.
    EXPECT_EQ(rig.stats().get("gpu.l2.slice[0].sector_accesses"), on ? 4 : 8) << on;
  }
}

TEST(L2NearLevel, AColdFarReadTakesOneCycleMoreWithTheNearLevel) {
  Picos latency[2] = {};
  for (const bool on : {true, false}) {
    Rig rig(near_level(on));
    rig.sm(1).load_l1_bypass(0, 1, strided(kLine, 4));
    rig.run();
    EXPECT_EQ(rig.stats().sum("gpu.dram.channel[", "read_bytes"), 128) << on;
    latency[on ? 1 : 0] = rig.sm(1).latency(1);
  }
  EXPECT_EQ(latency[1], latency[0] + kCycle);
  EXPECT_GT(latency[1], kFarRoundTrip + 100 * kCycle) << "it waited for DRAM";
}

TEST(L2NearLevel, AWriteDropsTheNearCopy) {
  Rig rig(near_level(true));
  rig.memory->memcpy_to_device(kLine, 128);
  rig.sm(1).load_l1_bypass(0, 1, strided(kLine, 4));
  rig.run();
  rig.sm(0).schedule(rig.now(), 2, isa::MemSpace::kGlobal, isa::MemKind::kStore, strided(kLine, 4));
  rig.run();
  rig.sm(1).load_l1_bypass(rig.now() + 100 * kCycle, 3, strided(kLine, 4));
  rig.run();
  EXPECT_EQ(rig.sm(1).latency(3), kFarMiss);
  EXPECT_EQ(rig.stats().get("gpu.l2.slice[2].fetched_sectors"), 8);
}

TEST(L2NearLevel, NeedsReplicatedFarReads) {
  config::GpuConfig c = near_level(true);
  c.mutable_interconnect()->set_replicate_far_reads(false);
  const std::string error = testing::build_error(c);
  EXPECT_NE(error.find("interconnect.near_slice_serves_far_reads needs "
                       "interconnect.replicate_far_reads"),
            std::string::npos)
      << error;
}

}  // namespace
}  // namespace sassim::memsys
