// Where reads of one line share a request: the L1's MSHRs for loads that bypass it
// (l1.merge_bypass_reads) and the L2 slice's request queue (l2.merge_queued_reads).
#include <algorithm>
#include <utility>

#include <gtest/gtest.h>

#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

using testing::kCycle;
using testing::kL2HitRoundTrip;
using testing::Rig;
using testing::small_config;
using testing::strided;

// Lines 0x10000 / 128 = 512 and 516 are both homed in slice 0 ("linear": line % 4).
constexpr std::uint64_t kLineA = 0x10000;
constexpr std::uint64_t kLineB = 0x10200;

// Two L1-bypassing loads of line A from one SM at once.
struct TwoBypassLoads {
  explicit TwoBypassLoads(bool merge) : rig(merging_l1(merge)) {
    rig.sm(0).load_l1_bypass(0, 1, strided(kLineA, 4));
    rig.sm(0).load_l1_bypass(0, 2, strided(kLineA, 4));
    rig.run();
  }
  static config::GpuConfig merging_l1(bool merge) {
    config::GpuConfig c = small_config();
    c.mutable_l1()->set_merge_bypass_reads(merge);
    return c;
  }
  Rig rig;
};

TEST(ReadMerging, BypassLoadsOfOneLineEachFetchTheirOwnData) {
  TwoBypassLoads run(false);
  const auto stats = run.rig.stats();
  EXPECT_EQ(stats.get("gpu.noc.request_packets"), 2);
  EXPECT_EQ(stats.get("gpu.noc.response_packets"), 2);
  EXPECT_EQ(stats.get("gpu.l2.slice[0].sector_accesses"), 8);
  EXPECT_EQ(stats.sum("gpu.dram.channel[", "read_bytes"), 128) << "the L2's MSHR still merges";
}

TEST(ReadMerging, BypassLoadsShareAnMshrWhenTheL1MergesThem) {
  TwoBypassLoads run(true);
  const auto stats = run.rig.stats();
  EXPECT_EQ(stats.get("gpu.noc.request_packets"), 1);
  EXPECT_EQ(stats.get("gpu.noc.response_packets"), 1);
  EXPECT_EQ(run.rig.sm(0).completed_at(1), run.rig.sm(0).completed_at(2));
}

TEST(ReadMerging, CachedLoadsStillShareAnMshr) {
  Rig rig(small_config());
  testing::MockSm& sm = rig.sm(0);
  sm.load(0, 1, strided(kLineA, 4));
  sm.load(0, 2, strided(kLineA, 4));
  rig.run();
  EXPECT_EQ(rig.stats().get("gpu.noc.request_packets"), 1);
}

// A slice that reads out one byte per cycle: a four-sector read of line B holds its
// bandwidth for 128 cycles, while the requests behind it wait in its queue.
config::GpuConfig slow_slice(bool merge) {
  config::GpuConfig c = small_config();
  c.mutable_l2()->set_slice_bytes_per_cycle(1);
  c.mutable_l2()->set_merge_queued_reads(merge);
  return c;
}

// Both SMs read line A while line B's read holds slice 0: they reach it together.
struct QueuedReads {
  explicit QueuedReads(bool merge) : rig(slow_slice(merge)) {
    rig.memory->memcpy_to_device(kLineA, 0x1000);
    rig.sm(0).load_l1_bypass(0, 1, strided(kLineB, 4));
    rig.sm(0).load_l1_bypass(kCycle, 2, strided(kLineA, 4));
    rig.sm(1).load_l1_bypass(kCycle, 3, strided(kLineA, 4));
    rig.run();
  }
  Rig rig;
};

TEST(ReadMerging, QueuedReadsOfALineShareTheSlicesLookup) {
  QueuedReads merged(true);
  QueuedReads separate(false);
  const auto m = merged.rig.stats();
  const auto s = separate.rig.stats();
  EXPECT_EQ(m.get("gpu.l2.slice[0].merged_reads"), 1);
  EXPECT_EQ(m.get("gpu.l2.slice[0].sector_accesses"), 8);
  EXPECT_EQ(s.get("gpu.l2.slice[0].merged_reads"), 0);
  EXPECT_EQ(s.get("gpu.l2.slice[0].sector_accesses"), 12);
  EXPECT_EQ(m.get("gpu.noc.response_packets"), 3) << "each read still gets its own response";
  // Merged, both reads of A leave with one read-out; separate, the one the interconnect
  // delivered second waits 128 cycles for the slice's bandwidth.
  const auto a_reads = [](Rig& rig) {
    const Picos x = rig.sm(0).completed_at(2);
    const Picos y = rig.sm(1).completed_at(3);
    return std::pair{std::min(x, y), std::max(x, y)};
  };
  const auto [m_first, m_second] = a_reads(merged.rig);
  const auto [s_first, s_second] = a_reads(separate.rig);
  EXPECT_EQ(m_first, m_second);
  EXPECT_EQ(s_first, m_first);
  EXPECT_EQ(s_second - s_first, 128 * kCycle);
}

// Behind line B's read, slice 0's queue holds A, C, A: when the first read of A hits,
// the second sits two entries behind it.
std::uint64_t merges_with_window(std::uint32_t window) {
  config::GpuConfig c = slow_slice(true);
  c.mutable_l2()->set_merge_window_entries(window);
  Rig rig(c);
  constexpr std::uint64_t kLineC = 0x10400;  // line 520: slice 0 too
  rig.memory->memcpy_to_device(kLineA, 0x1000);
  rig.sm(0).load_l1_bypass(0, 1, strided(kLineB, 4));
  rig.sm(0).load_l1_bypass(kCycle, 2, strided(kLineA, 4));
  rig.sm(0).load_l1_bypass(2 * kCycle, 3, strided(kLineC, 4));
  rig.sm(1).load_l1_bypass(20 * kCycle, 4, strided(kLineA, 4));  // after C has crossed
  rig.run();
  return static_cast<std::uint64_t>(rig.stats().get("gpu.l2.slice[0].merged_reads"));
}

TEST(ReadMerging, TheMergeWindowBoundsTheSearch) {
  EXPECT_EQ(merges_with_window(1), 0);
  EXPECT_EQ(merges_with_window(2), 1);
  EXPECT_EQ(merges_with_window(0), 1) << "0 searches the whole queue";
}

TEST(ReadMerging, AQueuedWriteOfTheLineEndsTheMerge) {
  Rig rig(slow_slice(true));
  rig.memory->memcpy_to_device(kLineA, 0x1000);
  rig.sm(0).load_l1_bypass(0, 1, strided(kLineB, 4));
  rig.sm(0).load_l1_bypass(kCycle, 2, strided(kLineA, 4));
  rig.sm(0).store(2 * kCycle, 3, strided(kLineA, 4));
  rig.sm(1).load_l1_bypass(10 * kCycle, 4, strided(kLineA, 4));
  rig.run();
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.l2.slice[0].merged_reads"), 0);
  EXPECT_EQ(stats.get("gpu.l2.slice[0].sector_accesses"), 16);
  EXPECT_GT(rig.sm(1).completed_at(4), rig.sm(0).completed_at(2) + 100 * kCycle);
}

TEST(ReadMerging, QueuedReadsWantingSectorsTheLineLacksAreNotAnswered) {
  Rig rig(slow_slice(true));
  rig.memory->memcpy_to_device(kLineA, 64);  // sectors 0 and 1 of line A
  rig.memory->memcpy_to_device(kLineB, 128);
  rig.sm(0).load_l1_bypass(0, 1, strided(kLineB, 4));
  rig.sm(0).load_l1_bypass(kCycle, 2, strided(kLineA, 4, 16));  // sectors 0-1: a hit
  rig.sm(1).load_l1_bypass(kCycle, 3, strided(kLineA, 4));      // sectors 0-3: a miss
  rig.run();
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.l2.slice[0].merged_reads"), 0);
  EXPECT_EQ(stats.sum("gpu.dram.channel[", "read_bytes"), 64);  // line A's sectors 2 and 3
}

// Both SMs miss on line A and wait in one MSHR; a read of line B (resident) reaches
// the slice after A's fill (about cycle 131) and waits for the bandwidth the fill's
// reads took: 128 cycles of it at least, so it always waits.
struct ReadsWaitingOnAFill {
  explicit ReadsWaitingOnAFill(bool merge, std::uint32_t second_threads = 32)
      : rig(slow_slice(merge)) {
    rig.memory->memcpy_to_device(kLineB, 128);
    rig.sm(0).load_l1_bypass(0, 1, strided(kLineA, 4));
    rig.sm(1).load_l1_bypass(0, 2, strided(kLineA, 4, second_threads));
    rig.sm(0).load_l1_bypass(150 * kCycle, 3, strided(kLineB, 4));
    rig.run();
  }
  Picos b_after_a() { return rig.sm(0).completed_at(3) - rig.sm(0).completed_at(1); }
  Rig rig;
};

TEST(ReadMerging, ReadsCompletedByOneFillShareItsReadOut) {
  ReadsWaitingOnAFill merged(true);
  ReadsWaitingOnAFill separate(false);
  for (auto* run : {&merged, &separate}) {
    EXPECT_EQ(run->rig.stats().sum("gpu.dram.channel[", "read_bytes"), 128);
    EXPECT_EQ(run->rig.sm(0).completed_at(1), run->rig.sm(1).completed_at(2));
    EXPECT_EQ(run->rig.stats().get("gpu.noc.response_packets"), 3);
  }
  // Separate, the fill's two reads take 256 cycles of the slice's byte a cycle; merged,
  // they share one read-out of the line's 128 bytes.
  EXPECT_EQ(separate.b_after_a() - merged.b_after_a(), 128 * kCycle);
}

TEST(ReadMerging, AFillsReadsShareOnlyTheSectorsTheyHaveInCommon) {
  ReadsWaitingOnAFill whole(true);
  ReadsWaitingOnAFill half(true, 16);  // SM 1 reads sectors 0 and 1 only
  ReadsWaitingOnAFill separate(false, 16);
  // Merged, SM 1's sectors are part of SM 0's read-out either way; separate, they cost
  // 64 cycles of their own.
  EXPECT_EQ(half.b_after_a(), whole.b_after_a());
  EXPECT_EQ(separate.b_after_a() - half.b_after_a(), 64 * kCycle);
}

}  // namespace
}  // namespace sassim::memsys
