// Exact-cycle tests of the L1 / shared memory unit inside a full memory system.
#include <gtest/gtest.h>

#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

using testing::Rig;
using testing::small_config;
using testing::strided;

using testing::kCycle;

TEST(L1Timing, HitCompletesExactlyAtHitLatency) {
  Rig rig(small_config());
  testing::MockSm& sm = rig.sm(0);
  sm.load(0, 1, strided(0x10000, 4));
  rig.run();
  sm.load(rig.now(), 2, strided(0x10000, 4));
  rig.run();
  EXPECT_EQ(sm.latency(2), 20 * kCycle);
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.sm[0].l1.accesses"), 2);
  EXPECT_EQ(stats.get("gpu.sm[0].l1.sector_accesses"), 8);
  EXPECT_EQ(stats.get("gpu.sm[0].l1.sector_hits"), 4);
  EXPECT_EQ(stats.get("gpu.sm[0].l1.sector_misses"), 4);
}

TEST(L1Timing, GlobalLoadsBypassTheL1WhenTheGpuDoesNotCacheThem) {
  config::GpuConfig c = small_config();
  c.mutable_l1()->set_cache_global_loads(false);
  Rig rig(c);
  testing::MockSm& sm = rig.sm(0);
  sm.load(0, 1, strided(0x10000, 4));
  rig.run();
  sm.load(rig.now(), 2, strided(0x10000, 4));
  rig.run();
  EXPECT_GT(sm.latency(2), 20 * kCycle);  // the second load goes to L2 again
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.sm[0].l1.sector_hits"), 0);
  EXPECT_EQ(stats.get("gpu.sm[0].l1.sector_misses"), 8);
  EXPECT_EQ(stats.get("gpu.l2.slice[0].sector_accesses") +
                stats.get("gpu.l2.slice[1].sector_accesses") +
                stats.get("gpu.l2.slice[2].sector_accesses") +
                stats.get("gpu.l2.slice[3].sector_accesses"),
            8);
}

TEST(L1Timing, CacheOperatorBypassNeitherHitsNorAllocates) {
  Rig rig(small_config());
  testing::MockSm& sm = rig.sm(0);
  sm.load(0, 1, strided(0x10000, 4));  // allocates the line
  rig.run();
  sm.load_l1_bypass(rig.now(), 2, strided(0x10000, 4));  // present, but not looked up
  rig.run();
  sm.load_l1_bypass(rig.now(), 3, strided(0x20000, 4));  // not allocated...
  rig.run();
  sm.load(rig.now(), 4, strided(0x20000, 4));  // ...so an ordinary load still misses
  rig.run();
  EXPECT_GT(sm.latency(2), 20 * kCycle);
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.sm[0].l1.sector_hits"), 0);
  EXPECT_EQ(stats.get("gpu.sm[0].l1.sector_misses"), 16);
}

TEST(L1Timing, HitIsNotVisibleOneCycleEarly) {
  Rig rig(small_config());
  rig.sm(1).load(0, 1, strided(0x10000, 4));
  rig.run();
  // Drive SM 1's port directly: submit at an edge, let the L1 look the access up, then
  // ask for the token one picosecond before and exactly at hit latency.
  SmMemoryPort& port = rig.memory->port(1);
  const Picos t = rig.now();
  const std::vector<std::uint64_t> addresses = strided(0x10000, 4);
  WarpMemAccess access;
  access.token = 7;
  access.active_mask = 0xffffffffu;
  access.addresses = addresses;
  ASSERT_TRUE(port.can_accept(t));
  port.submit(access, t);
  EXPECT_EQ(port.outstanding(), 1u);
  rig.engine.run_until([&] { return port.next_completion_ps() != kNever; });
  EXPECT_EQ(rig.now(), t + kCycle);  // the lookup cycle
  EXPECT_EQ(port.next_completion_ps(), t + 20 * kCycle);
  EXPECT_FALSE(port.pop_completed(t + 20 * kCycle - 1).has_value());
  const std::optional<std::uint32_t> token = port.pop_completed(t + 20 * kCycle);
  ASSERT_TRUE(token.has_value());
  EXPECT_EQ(*token, 7u);
  EXPECT_EQ(port.outstanding(), 0u);
}

TEST(L1Timing, SharedAccessCompletesAtSharedLatency) {
  Rig rig(small_config());
  testing::MockSm& sm = rig.sm(0);
  sm.schedule(0, 1, isa::MemSpace::kShared, isa::MemKind::kLoad, strided(0, 4));
  rig.run();
  EXPECT_EQ(sm.latency(1), 10 * kCycle);
  EXPECT_EQ(rig.stats().get("gpu.sm[0].l1.shared_bank_passes"), 1);
}

TEST(L1Timing, NWaySharedConflictAddsNMinusOneCycles) {
  for (std::uint32_t n : {2u, 4u, 8u, 32u}) {
    Rig rig(small_config());
    testing::MockSm& sm = rig.sm(0);
    std::vector<std::uint64_t> addresses;
    const std::uint32_t group = 32 / n;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
      addresses.push_back((lane % group) * 4 + (lane / group) * 128);
    sm.schedule(0, 1, isa::MemSpace::kShared, isa::MemKind::kLoad, addresses);
    rig.run();
    EXPECT_EQ(sm.latency(1), (10 + n - 1) * kCycle) << n << "-way";
    EXPECT_EQ(rig.stats().get("gpu.sm[0].l1.shared_bank_passes"), n);
  }
}

TEST(L1Timing, SharedAccessesQueueOnTheDataPath) {
  Rig rig(small_config());
  testing::MockSm& sm = rig.sm(0);
  std::vector<std::uint64_t> four_way;
  for (std::uint32_t lane = 0; lane < 32; ++lane)
    four_way.push_back((lane % 8) * 4 + (lane / 8) * 128);
  sm.schedule(0, 1, isa::MemSpace::kShared, isa::MemKind::kStore, four_way);
  sm.schedule(0, 2, isa::MemSpace::kShared, isa::MemKind::kLoad, strided(0, 4));
  rig.run();
  // Both submitted in one cycle: the second starts when the first's 4 passes are done.
  EXPECT_EQ(sm.submitted_at(1), sm.submitted_at(2));
  EXPECT_EQ(sm.latency(1), 13 * kCycle);
  EXPECT_EQ(sm.latency(2), (4 + 10) * kCycle);
}

TEST(L1Timing, TensorOperandReadsTakeTheSharedDataPath) {
  Rig rig(small_config());
  testing::MockSm& sm = rig.sm(0);
  // 4096 operand bytes at 128 bytes per cycle: this cycle and 31 more.
  EXPECT_EQ(rig.memory->port(0).read_tensor_operands(4096, 0), 31U);
  sm.schedule(0, 1, isa::MemSpace::kShared, isa::MemKind::kLoad, strided(0, 4));
  rig.run();
  // The read holds cycles 0..31; the load's bank pass takes cycle 32 and its data is
  // in the registers shared latency - 1 cycles after.
  EXPECT_EQ(sm.submitted_at(1) + sm.latency(1), (32 + 10 - 1) * kCycle);
}

TEST(L1Timing, RemoteSharedAccessesQueueOnTheSharedDataPath) {
  Rig rig(small_config());
  testing::MockSm& sm = rig.sm(0);
  SmMemoryPort& port = rig.memory->port(0);
  // 512 bytes of another SM at 128 bytes per cycle: begin at once, hold cycles 0..3;
  // the next 512 begin when those are over (4 cycles later) and hold 4..7.
  EXPECT_EQ(port.remote_shared_access(512, 0), 0U);
  EXPECT_EQ(port.remote_shared_access(512, 0), 4U);
  sm.schedule(0, 1, isa::MemSpace::kShared, isa::MemKind::kLoad, strided(0, 4));
  rig.run();
  // The load's bank pass takes cycle 8; its data is in the registers shared latency - 1
  // cycles after.
  EXPECT_EQ(sm.submitted_at(1) + sm.latency(1), (8 + 10 - 1) * kCycle);
}

TEST(L1Timing, RemoteSharedWritesReportWhenTheyHavePassedTheDataPath) {
  Rig rig(small_config());
  SmMemoryPort& port = rig.memory->port(0);
  // 512 bytes at 128 bytes per cycle: cycles 0..3, done 3 cycles after this one; the
  // next 1024 wait for them and hold cycles 4..11.
  EXPECT_EQ(port.remote_shared_write(512, 0), 3U);
  EXPECT_EQ(port.remote_shared_write(1024, 0), 11U);
  EXPECT_EQ(port.remote_shared_access(128, 12 * kCycle), 0U);
}

TEST(L1Timing, CompletionsPopInTimeOrderTiesInSubmissionOrder) {
  config::GpuConfig c = small_config();
  c.mutable_l1()->set_tag_lookups_per_cycle(2);
  c.mutable_l1()->set_data_bytes_per_cycle(256);
  Rig rig(c);
  testing::MockSm& sm = rig.sm(0);
  sm.load(0, 1, strided(0x10000, 4));
  sm.load(0, 2, strided(0x20000, 4));
  rig.run();
  const Picos t = rig.now();
  sm.load(t, 30, strided(0x40000, 4));               // miss: submitted first, completes last
  sm.load(t + 2 * kCycle, 20, strided(0x20000, 4));  // hit
  sm.load(t + 2 * kCycle, 10, strided(0x10000, 4));  // hit, looked up in the same cycle as 20
  rig.run();
  EXPECT_EQ(sm.completed_at(20), sm.completed_at(10));
  const std::vector<std::uint32_t> expected{1, 2, 20, 10, 30};
  EXPECT_LT(sm.completed_at(10), sm.completed_at(30));
  EXPECT_EQ(sm.completion_order(), expected);
}

TEST(L1Timing, MshrMergesTwoWarpsMissingTheSameLine) {
  Rig rig(small_config());
  testing::MockSm& sm = rig.sm(0);
  sm.load(0, 1, strided(0x10000, 4));
  sm.load(0, 2, strided(0x10000, 4));
  rig.run();
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.noc.request_packets"), 1);
  EXPECT_EQ(stats.get("gpu.noc.response_packets"), 1);
  EXPECT_EQ(stats.get("gpu.sm[0].l1.sector_misses"), 8);
  // The second warp waits for the same fill: both complete together.
  EXPECT_EQ(sm.completed_at(1), sm.completed_at(2));
}

TEST(L1Timing, MergeRequestsOnlySectorsNotInFlight) {
  Rig rig(small_config());
  testing::MockSm& sm = rig.sm(0);
  sm.load(0, 1, strided(0x10000, 4, 16));  // sectors 0-1
  sm.load(0, 2, strided(0x10000, 4, 32));  // sectors 0-3: asks only for 2-3
  rig.run();
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.noc.request_packets"), 2);
  EXPECT_EQ(stats.sum("gpu.l2.slice[", "sector_accesses"), 4);
  EXPECT_EQ(stats.sum("gpu.dram.channel[", "read_bytes"), 128);
}

TEST(L1Timing, FullMshrsHoldTheAccessUntilAFillFreesOne) {
  config::GpuConfig c = small_config();
  c.mutable_l1()->set_mshr_entries(2);
  Rig rig(c);
  testing::MockSm& sm = rig.sm(0);
  // Four lines (stride 128 B): lines 0 and 1 take both MSHRs, 2 and 3 must wait.
  sm.load(0, 1, strided(0x10000, 128, 4));
  rig.run();
  // One line alone misses to DRAM in M = 20 + 2 x 10 + 30 + 100 = 170 cycles. Lines are
  // looked up at cycles 1 and 2 after submit; line 0's response is taken at
  // 1 + (170 - 1) - (20 - 2) = 152, which frees an MSHR for line 2 in that cycle, line 3
  // follows at 153, and its data arrives 169 cycles later.
  EXPECT_EQ(sm.latency(1), (153 + 169) * kCycle);
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.noc.request_packets"), 4);
  EXPECT_EQ(stats.get("gpu.sm[0].l1.sector_misses"), 4);
  EXPECT_EQ(stats.get("gpu.sm[0].l1.mshr_full_stall_cycles"), 152 - 3);
}

TEST(L1Timing, FullLsuQueueBackPressuresTheSm) {
  config::GpuConfig c = small_config();
  c.mutable_l1()->set_lsu_queue_entries(1);
  Rig rig(c);
  testing::MockSm& sm = rig.sm(0);
  for (std::uint32_t token = 1; token <= 3; ++token) {
    sm.schedule(0, token, isa::MemSpace::kShared, isa::MemKind::kLoad, strided(0, 4));
  }
  rig.run();
  EXPECT_EQ(sm.submitted_at(2), sm.submitted_at(1) + kCycle);
  EXPECT_EQ(sm.submitted_at(3), sm.submitted_at(2) + kCycle);
  EXPECT_EQ(sm.latency(3), 10 * kCycle);
}

TEST(L1Timing, StoreCompletesWhenItEntersTheInterconnect) {
  Rig rig(small_config());
  testing::MockSm& sm = rig.sm(0);
  sm.schedule(0, 1, isa::MemSpace::kGlobal, isa::MemKind::kStore, strided(0x10000, 4));
  sm.schedule(0, 2, isa::MemSpace::kGlobal, isa::MemKind::kStore, strided(0x20000, 128, 4));
  rig.run();
  EXPECT_EQ(sm.latency(1), 1 * kCycle);
  EXPECT_EQ(sm.latency(2), 5 * kCycle);  // behind store 1, then one line per cycle
  rig.drain();
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.sm[0].l1.store_sectors"), 8);
  EXPECT_EQ(stats.get("gpu.noc.request_packets"), 5);
  EXPECT_EQ(stats.get("gpu.noc.response_packets"), 0);
}

// With write credits every store request asks the L2 for an acknowledgement and holds
// one credit per sector it writes until the acknowledgement is back.
config::GpuConfig with_write_credits(std::uint32_t sectors) {
  config::GpuConfig c = small_config();
  c.mutable_l1()->set_write_credit_sectors(sectors);
  return c;
}

TEST(L1Timing, WriteCreditsHoldTheNextStoreUntilAnAcknowledgementReturns) {
  Rig rig(with_write_credits(4));
  testing::MockSm& sm = rig.sm(0);
  sm.store(0, 1, strided(0x10000, 4));
  sm.store(0, 2, strided(0x20000, 4));
  rig.run();
  EXPECT_EQ(sm.latency(1), 1 * kCycle);
  // Store 1's request leaves the LSU in cycle 1, is visible to the interconnect in cycle 2,
  // reaches the slice 10 cycles later, is acknowledged through the 30-cycle hit pipeline
  // and comes back in 10 more: the L1 takes the acknowledgement in cycle 52 and sends
  // store 2 in that cycle.
  EXPECT_EQ(sm.latency(2), 52 * kCycle);
  rig.drain();
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.sm[0].l1.store_sectors"), 8);
  EXPECT_EQ(stats.get("gpu.noc.response_packets"), 2);  // two acknowledgements
  EXPECT_EQ(stats.get("gpu.sm[0].l1.write_credit_stall_cycles"), 52 - 2);
}

TEST(L1Timing, AStoresAckTokenCompletesWithItsLastAcknowledgement) {
  Rig rig(small_config());
  EXPECT_TRUE(rig.memory->port(0).acknowledges_writes());
  testing::MockSm& sm = rig.sm(0);
  sm.store_acknowledged(0, 1, 2, strided(0x10000, 8));  // two lines
  rig.run();
  // The lines leave the LSU in cycles 1 and 2. The first's acknowledgement would be taken
  // in cycle 52 (as in the credit test above); the second request follows the first's
  // 136 bytes through the 64-byte port two cycles later, so its acknowledgement comes in
  // cycle 54 and completes the ack token.
  EXPECT_EQ(sm.latency(1), 2 * kCycle);
  EXPECT_EQ(sm.completed_at(2) - sm.submitted_at(1), 54 * kCycle);
  rig.drain();
  EXPECT_EQ(rig.stats().get("gpu.noc.response_packets"), 2);  // one per line
}

TEST(L1Timing, StoresWithinTheWriteCreditsDoNotWait) {
  Rig rig(with_write_credits(8));
  testing::MockSm& sm = rig.sm(0);
  sm.store(0, 1, strided(0x10000, 4));
  sm.store(0, 2, strided(0x20000, 4));
  sm.store(0, 3, strided(0x30000, 4));
  rig.run();
  EXPECT_EQ(sm.latency(1), 1 * kCycle);
  EXPECT_EQ(sm.latency(2), 2 * kCycle);   // one line per cycle, 8 sectors in flight
  EXPECT_EQ(sm.latency(3), 52 * kCycle);  // waits for store 1's acknowledgement
}

TEST(L1Timing, AStoreLargerThanTheWriteCreditsGoesAlone) {
  Rig rig(with_write_credits(2));
  testing::MockSm& sm = rig.sm(0);
  sm.store(0, 1, strided(0x10000, 4));
  sm.store(0, 2, strided(0x20000, 4, 2));
  rig.run();
  EXPECT_EQ(sm.latency(1), 1 * kCycle);  // four sectors, nothing else in flight
  EXPECT_EQ(sm.latency(2), 52 * kCycle);
  rig.drain();
  EXPECT_EQ(rig.stats().get("gpu.noc.response_packets"), 2);
}

TEST(L1Timing, AsyncCopyAddsItsSharedWrite) {
  Rig rig(small_config());
  testing::MockSm& sm = rig.sm(0);
  sm.load(0, 1, strided(0x10000, 16), 16);  // warm 512 bytes into the L1
  rig.run();
  const Picos t = rig.now();
  sm.schedule(t, 2, isa::MemSpace::kGlobal, isa::MemKind::kAsyncCopy, strided(0x10000, 16), 16);
  rig.run();
  // Four lines hit (one lookup each, cycles 1-4): the last is ready at 4 + 19 = 23, then
  // 512 bytes are written to shared memory in four passes.
  EXPECT_EQ(sm.latency(2), (23 + 4) * kCycle);
}

// LDGSTS.BYPASS: its data goes from the response into shared memory (no L1 fill, no
// second pass over the data path), and the L1 keeps no copy.
TEST(L1Timing, BypassingAsyncCopyWritesSharedMemoryAsItsDataArrives) {
  Picos latency[2] = {};
  for (const bool bypass : {false, true}) {
    Rig rig(small_config());
    testing::MockSm& sm = rig.sm(0);
    sm.async_copy(0, 1, strided(0x10000, 16), bypass);  // four lines, cold
    rig.run();
    latency[bypass ? 1 : 0] = sm.latency(1);
    sm.load(rig.now(), 2, strided(0x10000, 16), 16);
    rig.run();
    EXPECT_EQ(rig.stats().get("gpu.sm[0].l1.sector_hits"), bypass ? 0 : 16) << bypass;
  }
  EXPECT_EQ(latency[0], latency[1] + 4 * kCycle);  // the cached copy's four write passes
}

// The shared memory pipe: a shared load submitted with a global load that waits for
// MSHRs completes at its unloaded latency, not behind the global load.
TEST(L1Timing, SharedAccessDoesNotWaitBehindAGlobalAccess) {
  config::GpuConfig c = small_config();
  c.mutable_l1()->set_mshr_entries(1);
  Rig rig(c);
  testing::MockSm& sm = rig.sm(0);
  sm.load(0, 1, strided(0x10000, 128, 4));  // four lines, one MSHR
  sm.schedule(0, 2, isa::MemSpace::kShared, isa::MemKind::kLoad, strided(0, 4));
  rig.run();
  EXPECT_EQ(sm.submitted_at(1), sm.submitted_at(2));
  EXPECT_EQ(sm.latency(2), 10 * kCycle);
  EXPECT_GT(sm.latency(1), 3 * 150 * kCycle);  // its lines one at a time
}

}  // namespace
}  // namespace sassim::memsys
