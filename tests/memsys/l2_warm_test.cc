// Functional L2 accesses of work that sampling skipped (MemorySystem::warm_l2,
// L2Slice::warm): what they leave in the slices, and that they take no time and count
// nothing.
#include <gtest/gtest.h>

#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

using testing::kCycle;
using testing::kDramLatency;
using testing::kL2HitRoundTrip;
using testing::Rig;
using testing::small_config;
using testing::strided;

// small_config() with "linear" sets: slice 0's set 0 holds addresses k * 32 KiB.
constexpr std::uint64_t kSameSetStride = 256 * 128;

config::GpuConfig linear_sets() {
  config::GpuConfig c = small_config();
  c.mutable_l2()->set_set_index("linear");
  return c;
}

TEST(L2Warm, AWarmedReadIsAHitAndCountsNothing) {
  Rig rig(small_config());
  const std::vector<std::uint64_t> line = strided(0x4000, 4);
  rig.memory->warm_l2(line, 4, false);
  EXPECT_EQ(rig.stats().sum("gpu.l2.slice[", "sector_accesses"), 0);
  rig.sm(0).load(0, 1, line);
  rig.run();
  EXPECT_EQ(rig.sm(0).latency(1), kL2HitRoundTrip);
  EXPECT_EQ(rig.stats().sum("gpu.dram.channel[", "read_bytes"), 0);
  EXPECT_EQ(rig.stats().sum("gpu.l2.slice[", "sector_hits"), 4);
}

TEST(L2Warm, AWarmedReadValidatesOnlyTheSectorsTouched) {
  Rig rig(small_config());
  rig.memory->warm_l2(std::vector<std::uint64_t>{0x1000}, 4, false);  // sector 0 of the line
  rig.sm(0).load(0, 1, std::vector<std::uint64_t>{0x1000});
  rig.sm(1).load(0, 2, std::vector<std::uint64_t>{0x1020});
  rig.run();
  EXPECT_EQ(rig.sm(0).latency(1), kL2HitRoundTrip);
  EXPECT_EQ(rig.sm(1).latency(2), kL2HitRoundTrip + kDramLatency);
}

TEST(L2Warm, AWarmedWriteIsDirtyAndWrittenBackWhenEvicted) {
  Rig rig(linear_sets());
  rig.memory->warm_l2(strided(0, 4), 4, true);  // the whole line, dirty
  // Eight more lines of its set evict it (LRU): its four dirty sectors go to DRAM.
  for (std::uint32_t k = 1; k <= 8; ++k) {
    rig.sm(0).load(0, k, strided(k * kSameSetStride, 4));
  }
  rig.run();
  rig.drain();
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.l2.slice[0].writebacks"), 4);
  EXPECT_EQ(stats.get("gpu.dram.channel[0].write_bytes"), 128);
}

TEST(L2Warm, APartlyWrittenSectorStaysInvalidForReads) {
  Rig rig(small_config());
  rig.memory->warm_l2(std::vector<std::uint64_t>{0x1000}, 4, true);  // 4 of sector 0's 32 bytes
  rig.sm(0).load(0, 1, std::vector<std::uint64_t>{0x1004});
  rig.run();
  EXPECT_EQ(rig.sm(0).latency(1), kL2HitRoundTrip + kDramLatency);
}

TEST(L2Warm, ADirtyVictimOfAWarmedLineIsDroppedWithoutAWriteback) {
  Rig rig(linear_sets());
  rig.sm(0).schedule(0, 1, isa::MemSpace::kGlobal, isa::MemKind::kStore, strided(0, 4));
  rig.run();
  rig.drain();
  for (std::uint32_t k = 1; k <= 8; ++k)
    rig.memory->warm_l2(strided(k * kSameSetStride, 4), 4, false);
  rig.drain();
  EXPECT_EQ(rig.stats().get("gpu.l2.slice[0].writebacks"), 0);
  EXPECT_EQ(rig.stats().sum("gpu.dram.channel[", "write_bytes"), 0);
  // The first line is gone: a load of it misses.
  rig.sm(1).load(rig.now(), 9, strided(0, 4));
  rig.run();
  EXPECT_EQ(rig.sm(1).latency(9), kL2HitRoundTrip + kDramLatency);
}

TEST(L2Warm, ALineWaitingOnItsFillIsLeftAlone) {
  Rig rig(linear_sets());
  rig.sm(0).load(0, 1, strided(0, 4));
  // Once the miss waits at DRAM, the line is warmed as written: the fill still completes
  // the load after the DRAM latency, and the line stays clean (evicting it later
  // writes nothing back).
  rig.engine.run_until([] { return false; }, 60 * kCycle);
  rig.memory->warm_l2(strided(0, 4), 4, true);
  rig.run();
  EXPECT_EQ(rig.sm(0).latency(1), kL2HitRoundTrip + kDramLatency);
  for (std::uint32_t k = 1; k <= 8; ++k) {
    rig.sm(1).load(rig.now(), k + 1, strided(k * kSameSetStride, 4));
  }
  rig.run();
  rig.drain();
  EXPECT_EQ(rig.stats().get("gpu.l2.slice[0].writebacks"), 0);
}

}  // namespace
}  // namespace sassim::memsys
