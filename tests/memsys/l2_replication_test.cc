// Copies of far-partition lines in the requester's partition
// (interconnect.replicate_far_reads): exact round trips with mock SMs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

using testing::Rig;
using testing::small_config;
using testing::strided;

using testing::kCycle;
constexpr Picos kNearRoundTrip = testing::kL2HitRoundTrip;
constexpr std::uint32_t kFar = 7;  // far_partition_latency_cycles, each way
constexpr Picos kFarRoundTrip = kNearRoundTrip + 2 * kFar * kCycle;
// Linear hash over 4 slices: line 0x10000 / 128 = 512 lies in slice 0, partition 0,
// which SM 0 is near and SM 1 (partition 1) is far from. Its copy for SM 1's side goes
// to slice 2, the first slice of partition 1.
constexpr std::uint64_t kLine = 0x10000;

config::GpuConfig partitioned(bool replicate) {
  config::GpuConfig c = small_config();
  c.mutable_interconnect()->set_l2_partitions(2);
  c.mutable_interconnect()->set_far_partition_latency_cycles(kFar);
  c.mutable_interconnect()->set_replicate_far_reads(replicate);
  return c;
}

// The line copied to the L2 (as cudaMemcpy leaves it), then each of `lines` read in turn
// with L1-bypassing loads of 4 threads by `sm`, token 1, 2, ..., each after the previous
// one completed.
void read_in_turn(Rig& rig, std::uint32_t sm,
                  const std::vector<std::vector<std::uint64_t>>& reads) {
  rig.memory->memcpy_to_device(kLine, 128);
  std::uint32_t token = 1;
  for (const auto& addresses : reads) {
    rig.sm(sm).load_l1_bypass(rig.now(), token++, addresses);
    rig.run();
  }
}

TEST(L2Replication, FirstFarReadPaysTheFarLatencyTheSecondIsNear) {
  Rig rig(partitioned(true));
  read_in_turn(rig, 1, {strided(kLine, 4), strided(kLine, 4)});
  EXPECT_EQ(rig.sm(1).latency(1), kFarRoundTrip);
  EXPECT_EQ(rig.sm(1).latency(2), kNearRoundTrip);
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.noc.replica_hits"), 1);
  // Both reads were served by the home slice (its bandwidth and hit latency).
  EXPECT_EQ(stats.get("gpu.l2.slice[0].sector_hits"), 8);
}

TEST(L2Replication, ACopyHoldsOnlyTheSectorsThatCrossed) {
  Rig rig(partitioned(true));
  // Sector 0 only, then sectors 0-3 twice.
  read_in_turn(rig, 1, {strided(kLine, 4, 8), strided(kLine, 4), strided(kLine, 4)});
  EXPECT_EQ(rig.sm(1).latency(2), kFarRoundTrip);
  EXPECT_EQ(rig.sm(1).latency(3), kNearRoundTrip);
}

TEST(L2Replication, AWriteDropsTheCopy) {
  Rig rig(partitioned(true));
  read_in_turn(rig, 1, {strided(kLine, 4)});
  rig.sm(0).schedule(rig.now(), 2, isa::MemSpace::kGlobal, isa::MemKind::kStore, strided(kLine, 4));
  rig.run();
  rig.sm(1).load_l1_bypass(rig.now() + 100 * kCycle, 3, strided(kLine, 4));
  rig.run();
  EXPECT_EQ(rig.sm(1).latency(3), kFarRoundTrip);
  EXPECT_EQ(rig.stats().get("gpu.noc.replica_hits"), 0);
}

TEST(L2Replication, OffEveryFarReadPaysTheFarLatency) {
  Rig rig(partitioned(false));
  read_in_turn(rig, 1, {strided(kLine, 4), strided(kLine, 4)});
  EXPECT_EQ(rig.sm(1).latency(1), kFarRoundTrip);
  EXPECT_EQ(rig.sm(1).latency(2), kFarRoundTrip);
  EXPECT_EQ(rig.stats().get("gpu.noc.replica_hits"), -1);  // not reported
}

TEST(L2Replication, NearReadsMakeNoCopy) {
  Rig rig(partitioned(true));
  read_in_turn(rig, 0, {strided(kLine, 4), strided(kLine, 4)});
  EXPECT_EQ(rig.sm(0).latency(1), kNearRoundTrip);
  EXPECT_EQ(rig.sm(0).latency(2), kNearRoundTrip);
  EXPECT_EQ(rig.stats().get("gpu.noc.replica_hits"), 0);
}

TEST(L2Replication, SlicesNotAMultipleOfPartitionsAreRefused) {
  config::GpuConfig c = partitioned(true);
  c.mutable_l2()->set_slices(3);
  const std::string error = testing::build_error(c);
  EXPECT_NE(error.find("interconnect.replicate_far_reads needs l2.slices (3) to be a multiple of "
                       "interconnect.l2_partitions (2)"),
            std::string::npos)
      << error;
}

}  // namespace
}  // namespace sassim::memsys
