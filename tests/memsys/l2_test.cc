// L2 slice behaviour through the full memory system: write-back, write-allocate,
// partial-sector writes, writebacks counted in DRAM bytes, host copies.
#include <gtest/gtest.h>

#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

using testing::Rig;
using testing::small_config;
using testing::strided;

using testing::kCycle;
using testing::kDramLatency;
using testing::kL2HitRoundTrip;

// small_config(): 4 slices ("linear": line % 4) of 64 sets x 8 ways; slice 0's set 0
// holds the lines that are multiples of 4 * 64 = 256, i.e. addresses k * 32 KiB.
constexpr std::uint64_t kSameSetStride = 256 * 128;

TEST(L2, StoresWriteThroughAndDirtyEvictionsReachDram) {
  // Lines kSameSetStride apart share a set when the set is the local line modulo the
  // sets ("linear"; "xor" would spread them).
  config::GpuConfig c = small_config();
  c.mutable_l2()->set_set_index("linear");
  Rig rig(c);
  for (std::uint32_t k = 0; k < 9; ++k) {
    rig.sm(0).schedule(0, k, isa::MemSpace::kGlobal, isa::MemKind::kStore,
                       strided(k * kSameSetStride, 4));
  }
  rig.run();
  rig.drain();
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.sm[0].l1.store_sectors"), 36);
  EXPECT_EQ(stats.get("gpu.l2.slice[0].sector_accesses"), 36);
  EXPECT_EQ(stats.get("gpu.l2.slice[0].sector_misses"), 36);
  // The ninth line evicts the first (LRU): its four dirty sectors are written back.
  EXPECT_EQ(stats.get("gpu.l2.slice[0].writebacks"), 4);
  EXPECT_EQ(stats.get("gpu.dram.channel[0].write_bytes"), 128);
  EXPECT_EQ(stats.sum("gpu.dram.channel[", "read_bytes"), 0) << "full-sector writes read nothing";
  EXPECT_EQ(stats.get("gpu.dram.channel[0].busy_cycles"), 8);  // 128 bytes at 16 bytes per clock
}

TEST(L2, FullySectoredStoreThenLoadHitsWithoutDram) {
  Rig rig(small_config());
  rig.sm(0).schedule(0, 1, isa::MemSpace::kGlobal, isa::MemKind::kStore, strided(0x2000, 4));
  rig.run();
  rig.drain();
  rig.sm(1).load(rig.now(), 2, strided(0x2000, 4));
  rig.run();
  EXPECT_EQ(rig.sm(1).latency(2), kL2HitRoundTrip);
  EXPECT_EQ(rig.stats().sum("gpu.dram.channel[", "read_bytes"), 0);
}

TEST(L2, PartlyWrittenSectorIsReadFromDramWhenLoaded) {
  Rig rig(small_config());
  rig.sm(0).schedule(0, 1, isa::MemSpace::kGlobal, isa::MemKind::kStore,
                     std::vector<std::uint64_t>{0x1000});
  rig.run();
  rig.drain();
  EXPECT_EQ(rig.stats().sum("gpu.dram.channel[", "read_bytes"), 0) << "a write alone reads nothing";
  rig.sm(1).load(rig.now(), 2, std::vector<std::uint64_t>{0x1004});
  rig.run();
  EXPECT_EQ(rig.sm(1).latency(2), kL2HitRoundTrip + kDramLatency);
  EXPECT_EQ(rig.stats().sum("gpu.dram.channel[", "read_bytes"), 32);
}

TEST(L2, HostCopyKeepsOnlyTheLastL2SizeResident) {
  Rig rig(small_config());
  const std::uint64_t size = 256 * 1024;
  rig.memory->memcpy_to_device(0, 2 * size);
  rig.sm(0).load(0, 1, strided(2 * size - 128, 4));  // last line: resident
  rig.sm(1).load(0, 2, strided(0, 4));               // first line: not resident
  rig.run();
  EXPECT_EQ(rig.sm(0).latency(1), kL2HitRoundTrip);
  EXPECT_EQ(rig.sm(1).latency(2), kL2HitRoundTrip + kDramLatency);
}

TEST(L2, HostCopyOfPartialLinesInstallsTheCoveredSectors) {
  Rig rig(small_config());
  rig.memory->memcpy_to_device(0x1010, 0x20);  // bytes 16..47 of line 0x20: sectors 0 and 1
  rig.sm(0).load(0, 1, std::vector<std::uint64_t>{0x1000, 0x1020});
  rig.run();
  rig.sm(1).load(rig.now(), 2, std::vector<std::uint64_t>{0x1040});
  rig.run();
  EXPECT_EQ(rig.sm(0).latency(1), kL2HitRoundTrip);
  EXPECT_EQ(rig.sm(1).latency(2), kL2HitRoundTrip + kDramLatency);
}

TEST(L2, MissesToOneLineFromTwoSmsMergeInTheSliceMshr) {
  Rig rig(small_config());
  rig.sm(0).load(0, 1, strided(0x10000, 4));
  rig.sm(1).load(0, 2, strided(0x10000, 4));
  rig.run();
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.noc.request_packets"), 2);
  EXPECT_EQ(stats.sum("gpu.dram.channel[", "read_bytes"), 128);
  EXPECT_EQ(stats.sum("gpu.l2.slice[", "sector_misses"), 8);
}

TEST(L2, FullDramQueueOfOneChannelDoesNotHoldMissesToAnother) {
  // One slice in front of two channels (line l goes to channel (l + parity of l / 2) % 2:
  // lines 0, 3, 5, 6 to channel 0, lines 1, 2, 4, 7 to channel 1), a DRAM queue of one
  // request, and a slow bus (8 bits: a sector holds it for 16 clocks). Lines 0, 3 and 5 go
  // to channel 0: line 0 is served, line 3 waits in the channel's queue and line 5 in the
  // slice's outbox. Line 1, looked up after them, goes to the idle channel 1 at once.
  config::GpuConfig c = small_config();
  c.mutable_l2()->set_slices(1);
  c.mutable_l2()->set_size_bytes(64 * 1024);
  c.mutable_dram()->set_bus_width_bits(8);
  c.mutable_dram()->set_queue_entries(1);
  Rig rig(c);
  rig.sm(0).load(0, 1, std::vector<std::uint64_t>{0, 384, 640});  // lines 0, 3, 5
  rig.sm(0).load(0, 2, std::vector<std::uint64_t>{128});          // line 1
  rig.run();
  EXPECT_EQ(rig.sm(0).latency(2), kL2HitRoundTrip + kDramLatency + 3 * kCycle);
  // Line 5 starts after lines 0 and 3 have each held channel 0's bus for 16 clocks.
  EXPECT_EQ(rig.sm(0).latency(1), kL2HitRoundTrip + kDramLatency + 2 * 16 * kCycle);
}

}  // namespace
}  // namespace sassim::memsys
