// What takes an L2 slice's data bandwidth besides its own reads and writes: partial-sector
// writes (l2.partial_write_read_modify_write), far requests passing through the near
// partition (interconnect.replicate_far_reads); and the crossbar links' room for the
// packets on their wires. Exact round trips with mock SMs.
#include <gtest/gtest.h>

#include <vector>

#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

using testing::kCycle;
using testing::kL2HitRoundTrip;
using testing::Rig;
using testing::small_config;
using testing::strided;

// Linear hash over 4 slices: line 0x10000 / 128 = 512 is homed in slice 0, 0x10100
// (514) in slice 2, 0x10200 (516) in slice 0 again.
constexpr std::uint64_t kLineA = 0x10000;
constexpr std::uint64_t kLineC = 0x10100;
constexpr std::uint64_t kLineB = 0x10200;

// Slices that move one byte per cycle, so a request's bytes are its cycles.
config::GpuConfig slow_slices(bool read_modify_write, std::uint32_t bytes_per_cycle = 1) {
  config::GpuConfig c = small_config();
  c.mutable_l2()->set_slice_bytes_per_cycle(bytes_per_cycle);
  c.mutable_l2()->set_partial_write_read_modify_write(read_modify_write);
  return c;
}

// SM 0 stores `threads` 4-byte words to the start of line B while SM 1 reads line A
// (resident in the L2) from the same slice: both reach slice 0 in the same cycle, the
// store first (round robin starts at SM 0), and the read waits for the slice's credit.
Picos read_behind_store(bool read_modify_write, std::uint32_t threads,
                        std::uint32_t slice_bytes_per_cycle = 1, std::uint64_t stride = 4) {
  Rig rig(slow_slices(read_modify_write, slice_bytes_per_cycle));
  rig.memory->memcpy_to_device(kLineA, 128);
  rig.sm(0).store(0, 1, strided(kLineB, stride, threads));
  rig.sm(1).load_l1_bypass(0, 2, strided(kLineA, 4, 1));
  rig.run();
  return rig.sm(1).latency(2);
}

TEST(L2DataPath, APartialSectorWriteTakesTheSliceTwiceWithReadModifyWrite) {
  // One 4-byte word: 32 bytes of slice credit, 64 with the read before the write.
  EXPECT_EQ(read_behind_store(false, 1), kL2HitRoundTrip + 32 * kCycle);
  EXPECT_EQ(read_behind_store(true, 1), kL2HitRoundTrip + 64 * kCycle);
}

TEST(L2DataPath, TheReadModifyWritePassesTakeWholeCycles) {
  // A 48 B/clk slice: the word's sector is read in one cycle and written back in
  // another (96 bytes of credit), so the read behind it waits two cycles for the credit;
  // without the read-modify-write the store's 32 bytes leave credit for it at once.
  EXPECT_EQ(read_behind_store(false, 1, 48), kL2HitRoundTrip);
  EXPECT_EQ(read_behind_store(true, 1, 48), kL2HitRoundTrip + 2 * kCycle);
  // A word in each of two sectors: 64 partial bytes take two cycles a pass, 192 bytes
  // in all (credit 48 - 192: four cycles to pay back); 64 bytes without: one.
  EXPECT_EQ(read_behind_store(true, 2, 48, 32), kL2HitRoundTrip + 4 * kCycle);
  EXPECT_EQ(read_behind_store(false, 2, 48, 32), kL2HitRoundTrip + kCycle);
}

TEST(L2DataPath, AWholeSectorWriteTakesTheSliceOnce) {
  // Eight words fill sector 0: no read is needed.
  EXPECT_EQ(read_behind_store(false, 8), kL2HitRoundTrip + 32 * kCycle);
  EXPECT_EQ(read_behind_store(true, 8), kL2HitRoundTrip + 32 * kCycle);
}

// Two partitions with far copies: slices 0-1 and SM 0 in partition 0, slices 2-3 and
// SM 1 in partition 1. Line A's copy for partition 1 sits in slice 2, line C's home.
config::GpuConfig partitioned(bool replicate, bool read_modify_write = false) {
  config::GpuConfig c = slow_slices(read_modify_write);
  c.mutable_interconnect()->set_l2_partitions(2);
  c.mutable_interconnect()->set_far_partition_latency_cycles(7);
  c.mutable_interconnect()->set_replicate_far_reads(replicate);
  return c;
}

// `writer` stores `words` 4-byte words of line A (8: one whole sector) while SM 1 reads
// line C (homed in slice 2, near SM 1) from the L2.
struct WriteThenNearRead {
  WriteThenNearRead(bool replicate, std::uint32_t writer, std::uint32_t words = 8,
                    bool read_modify_write = false)
      : rig(partitioned(replicate, read_modify_write)) {
    rig.memory->memcpy_to_device(kLineC, 128);
    rig.sm(writer).store(0, 1, strided(kLineA, 4, words));
    rig.sm(1).load_l1_bypass(writer == 1 ? 0 : kCycle, 2, strided(kLineC, 4, 1));
    rig.run();
  }
  Rig rig;
};

TEST(L2DataPath, AFarWritePassesThroughTheNearSlice) {
  // SM 1's L1 takes the store, then the read a cycle later (+1). The store is routed
  // in cycle 2 and takes 32 bytes of slice 2 (credit 1 -> -31, positive again at cycle
  // 34); the read is routed in cycle 3, reaches slice 2 at 13 and waits 21.
  WriteThenNearRead far(true, 1);
  EXPECT_EQ(far.rig.sm(1).latency(2), kL2HitRoundTrip + 22 * kCycle);
  const auto stats = far.rig.stats();
  EXPECT_EQ(stats.get("gpu.l2.slice[2].passed_sectors"), 1);
  EXPECT_EQ(stats.get("gpu.l2.slice[0].passed_sectors"), 0);
  EXPECT_EQ(stats.get("gpu.l2.slice[0].sector_accesses"), 1) << "the home slice still writes it";
}

TEST(L2DataPath, APartialWritePassesThroughWithoutItsReadModifyWrite) {
  // One word with l2.partial_write_read_modify_write: the near slice passes its 32 bytes
  // on (the same 22-cycle wait as above, not 54); the home slice reads and merges.
  WriteThenNearRead far(true, 1, 1, true);
  EXPECT_EQ(far.rig.sm(1).latency(2), kL2HitRoundTrip + 22 * kCycle);
  EXPECT_EQ(far.rig.stats().get("gpu.l2.slice[2].passed_sectors"), 1);
}

TEST(L2DataPath, NearWritesAndUnreplicatedPartitionsPassThroughNothing) {
  WriteThenNearRead near(true, 0);  // SM 0 writes line A in its own partition
  EXPECT_EQ(near.rig.sm(1).latency(2), kL2HitRoundTrip);
  EXPECT_EQ(near.rig.stats().get("gpu.l2.slice[2].passed_sectors"), 0);
  WriteThenNearRead plain(false, 1);  // only the cycle behind the store in SM 1's L1
  EXPECT_EQ(plain.rig.sm(1).latency(2), kL2HitRoundTrip + kCycle);
}

TEST(L2DataPath, AFarReadMissingTheCopyPassesThroughTheNearSlice) {
  Rig rig(partitioned(true));
  rig.memory->memcpy_to_device(kLineA, 128);
  rig.memory->memcpy_to_device(kLineC, 128);
  rig.sm(1).load_l1_bypass(0, 1, strided(kLineA, 4, 1));  // far, no copy yet: 32 bytes of slice 2
  rig.sm(1).load_l1_bypass(0, 2, strided(kLineC, 4, 1));  // near, in slice 2
  rig.run();
  EXPECT_EQ(rig.sm(1).latency(2), kL2HitRoundTrip + 22 * kCycle);
  rig.sm(1).load_l1_bypass(rig.now(), 3, strided(kLineA, 4, 1));  // served by the copy
  rig.run();
  EXPECT_EQ(rig.stats().get("gpu.l2.slice[2].passed_sectors"), 1);
  EXPECT_EQ(rig.stats().get("gpu.noc.replica_hits"), 1);
}

// Two entries per crossbar queue and ten cycles of wire: eight reads from one SM to
// slice 0 (lines 512, 516, ..., all in the L2) still leave it one per cycle, because
// the link into the slice also holds the ten packets on their way (counting only its
// two entries, it would pass two reads per round trip of a packet).
TEST(L2DataPath, CrossbarLinksHoldThePacketsOnTheirWires) {
  config::GpuConfig c = small_config();
  c.mutable_interconnect()->set_queue_entries(2);
  Rig rig(c);
  rig.memory->memcpy_to_device(kLineA, 8 * 0x200);
  for (std::uint32_t k = 0; k < 8; ++k) {
    rig.sm(0).load_l1_bypass(0, k + 1, strided(kLineA + k * 0x200, 4, 1));
  }
  rig.run();
  EXPECT_EQ(rig.sm(0).latency(1), kL2HitRoundTrip);
  // Each read takes its slice 32 bytes of 64 a cycle and the SM's port 32 + 8 bytes of
  // 64: the last one is back 7 cycles after the first.
  EXPECT_EQ(rig.sm(0).completed_at(8) - rig.sm(0).completed_at(1), 7 * kCycle);
}

// The L2 at half the core clock (2 ns cycles): an L2 hit of line A by `sm` (L1 20 core
// cycles, crossbar 10 each way, slice 30 L2 cycles); returns when it completes.
Picos hit_with_slow_l2(bool core_clock, std::uint32_t sm) {
  config::GpuConfig c = small_config();
  c.mutable_clocks()->set_l2_mhz(500);
  c.mutable_interconnect()->set_core_clock(core_clock);
  c.mutable_interconnect()->set_l2_partitions(2);
  c.mutable_interconnect()->set_far_partition_latency_cycles(7);
  Rig rig(c);
  rig.memory->memcpy_to_device(kLineA, 128);
  rig.sm(sm).load_l1_bypass(0, 1, strided(kLineA, 4, 1));
  rig.run();
  EXPECT_EQ(rig.sm(sm).submitted_at(1), kCycle);
  return rig.sm(sm).completed_at(1);
}

TEST(L2DataPath, TheCrossbarCanRunOnTheCoreClock) {
  // Submitted at 1 ns, the request is visible to the crossbar at 3 ns. On the L2 clock
  // the crossbar takes it at 4, the slice at 24 and answers at 24 + 58 + 2 = 84 (its
  // pipeline, then the hand-over); the response reaches the L1 at 104, done 18 ns later.
  EXPECT_EQ(hit_with_slow_l2(false, 0), 122 * kCycle);
  // On the core clock: taken at 3, at the slice at 13, seen at its edge 14, answered at
  // 74, at the L1 at 84, done at 102: the crossbar's 20 cycles take 20 ns, not 40.
  EXPECT_EQ(hit_with_slow_l2(true, 0), 102 * kCycle);
  // SM 1 is far: the link between the partitions adds 7 L2 cycles each way (at the
  // slice at 27, seen at 28, answered at 88, at the L1 at 88 + 10 + 14 = 112).
  EXPECT_EQ(hit_with_slow_l2(true, 1), 130 * kCycle);
}

}  // namespace
}  // namespace sassim::memsys
