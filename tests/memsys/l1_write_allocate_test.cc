// l1.write_allocate: stores install what they write in the L1 (write-through still),
// partly written sectors become valid once every byte has been written.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

using testing::kCycle;
using testing::Rig;
using testing::small_config;
using testing::strided;

constexpr std::uint64_t kLine = 0x10000;

config::GpuConfig allocating(bool on) {
  config::GpuConfig c = small_config();
  c.mutable_l1()->set_write_allocate(on);
  return c;
}

// One thread stores 8 bytes at each of `offsets` of kLine, then a warp loads sector 0.
Picos load_after_stores(bool allocate, const std::vector<std::uint64_t>& offsets) {
  Rig rig(allocating(allocate));
  testing::MockSm& sm = rig.sm(0);
  std::uint32_t token = 1;
  for (std::uint64_t offset : offsets) {
    sm.schedule(0, token++, isa::MemSpace::kGlobal, isa::MemKind::kStore, {kLine + offset}, 8);
  }
  rig.run();
  rig.drain();
  sm.load(rig.now(), 99, strided(kLine, 4, 8));  // bytes 0-31: sector 0
  rig.run();
  return sm.latency(99);
}

// A warp stores the whole of kLine, then (once it is written) loads it as token 2.
struct StoreThenLoad {
  explicit StoreThenLoad(bool allocate) : rig(allocating(allocate)) {
    rig.sm(0).store(0, 1, strided(kLine, 4));
    rig.run();
    rig.drain();
    rig.sm(0).load(rig.now(), 2, strided(kLine, 4));
    rig.run();
  }
  Rig rig;
};

TEST(L1WriteAllocate, AFullSectorStoreMakesTheNextLoadAHit) {
  StoreThenLoad run(true);
  EXPECT_EQ(run.rig.sm(0).latency(2), 20 * kCycle);
  EXPECT_EQ(run.rig.stats().get("gpu.sm[0].l1.sector_hits"), 4);
}

TEST(L1WriteAllocate, WithoutItTheStoredLineIsNotInTheL1) {
  StoreThenLoad run(false);
  EXPECT_GT(run.rig.sm(0).latency(2), 20 * kCycle);
  EXPECT_EQ(run.rig.stats().get("gpu.sm[0].l1.sector_hits"), 0);
}

TEST(L1WriteAllocate, PartialStoresValidateASectorWhenEveryByteIsWritten) {
  EXPECT_EQ(load_after_stores(true, {0, 8, 16, 24}), 20 * kCycle);
  EXPECT_EQ(load_after_stores(true, {24, 0, 16, 8}), 20 * kCycle) << "in any order";
  EXPECT_GT(load_after_stores(true, {0, 8, 16}), 20 * kCycle) << "bytes 24-31 missing";
  EXPECT_GT(load_after_stores(true, {0, 8, 16, 32}), 20 * kCycle) << "another sector";
  EXPECT_GT(load_after_stores(false, {0, 8, 16, 24}), 20 * kCycle);
}

TEST(L1WriteAllocate, AnEvictionForgetsTheBytesWrittenSoFar) {
  // small_config's L1 data part: 64 sets x 4 ways; lines 64 x 128 bytes apart share a set.
  Rig rig(allocating(true));
  testing::MockSm& sm = rig.sm(0);
  std::uint32_t token = 1;
  for (std::uint64_t offset : {0u, 8u, 16u}) {
    sm.schedule(0, token++, isa::MemSpace::kGlobal, isa::MemKind::kStore, {kLine + offset}, 8);
  }
  for (std::uint64_t k = 1; k <= 4; ++k) {  // four more lines of the set evict kLine
    sm.store(0, token++, strided(kLine + k * 64 * 128, 4));
  }
  sm.schedule(0, token++, isa::MemSpace::kGlobal, isa::MemKind::kStore, {kLine + 24}, 8);
  rig.run();
  rig.drain();
  sm.load(rig.now(), 99, strided(kLine, 4, 8));
  rig.run();
  EXPECT_GT(sm.latency(99), 20 * kCycle) << "only bytes 24-31 were written since the eviction";
}

}  // namespace
}  // namespace sassim::memsys
