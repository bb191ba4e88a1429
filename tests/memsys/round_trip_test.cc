// Exact round trips through L1, interconnect, L2 slice and DRAM channel, with one
// clock for everything and with three unrelated clocks.
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

Picos ceil_to(const Clock& clock, Picos t) {
  return clock.edge(clock.cycle_at_or_after(t));
}

TEST(RoundTrip, L2HitIsL1PlusTwoCrossingsPlusL2Hit) {
  Rig rig(small_config());
  rig.memory->memcpy_to_device(0x10000, 128);
  rig.sm(0).load(0, 1, strided(0x10000, 4));
  rig.run();
  EXPECT_EQ(rig.sm(0).latency(1), kL2HitRoundTrip);
  const auto stats = rig.stats();
  EXPECT_EQ(stats.sum("gpu.l2.slice[", "sector_hits"), 4);
  EXPECT_EQ(stats.sum("gpu.dram.channel[", "read_bytes"), 0);
}

TEST(RoundTrip, DramMissAddsExactlyTheDramLatency) {
  Rig rig(small_config());
  rig.sm(0).load(0, 1, strided(0x10000, 4));
  rig.run();
  EXPECT_EQ(rig.sm(0).latency(1), kL2HitRoundTrip + kDramLatency);
  const auto stats = rig.stats();
  EXPECT_EQ(stats.sum("gpu.l2.slice[", "sector_misses"), 4);
  EXPECT_EQ(stats.sum("gpu.dram.channel[", "read_bytes"), 128);
}

TEST(RoundTrip, SecondLoadOfAnotherSmHitsTheL2) {
  Rig rig(small_config());
  rig.sm(0).load(0, 1, strided(0x10000, 4));
  rig.run();
  rig.sm(1).load(rig.now(), 2, strided(0x10000, 4));
  rig.run();
  EXPECT_EQ(rig.sm(1).latency(2), kL2HitRoundTrip);
}

// Core 1500 MHz (667 ps), L2 1100 MHz (909 ps), DRAM 1000 MHz: every crossing waits for
// the receiver's next edge.
config::GpuConfig unrelated_clocks() {
  config::GpuConfig c = small_config();
  c.mutable_clocks()->set_core_mhz(1500);
  c.mutable_clocks()->set_l2_mhz(1100);
  c.mutable_dram()->set_latency_ns(100.25);
  return c;
}

TEST(RoundTrip, L2HitAcrossClocks) {
  Rig rig(unrelated_clocks());
  const Clock core = rig.clocks.core;
  const Clock l2 = rig.clocks.l2;
  ASSERT_EQ(core.period_ps, 667u);
  ASSERT_EQ(l2.period_ps, 909u);
  rig.memory->memcpy_to_device(0x10000, 128);
  rig.sm(0).load(5 * core.period_ps, 1, strided(0x10000, 4));
  rig.run();
  const Picos tc = rig.sm(0).submitted_at(1);
  // The request leaves the L1 after the submit and lookup cycles; the interconnect
  // takes it at its next edge; the slice answers; the L1 takes the response at its
  // next edge and needs the rest of its pipeline (hit latency - 2 cycles).
  const Picos t_noc = ceil_to(l2, tc + 2 * core.period_ps);
  const Picos t_back = t_noc + (2 * 10 + 30) * l2.period_ps;
  const Picos done = ceil_to(core, t_back) + (20 - 2) * core.period_ps;
  EXPECT_EQ(rig.sm(0).completed_at(1), done);
}

TEST(RoundTrip, DramMissAcrossClocks) {
  Rig rig(unrelated_clocks());
  const Clock core = rig.clocks.core;
  const Clock l2 = rig.clocks.l2;
  rig.sm(0).load(3 * core.period_ps, 1, strided(0x10000, 4));
  rig.run();
  const Picos tc = rig.sm(0).submitted_at(1);
  const Picos t_noc = ceil_to(l2, tc + 2 * core.period_ps);
  const Picos t_slice = t_noc + 10 * l2.period_ps;
  // DRAM latency counts from the slice's lookup edge; the fill is seen at the slice's
  // next edge, then the response takes the hit pipeline and the crossing back.
  const Picos t_fill = ceil_to(l2, t_slice + 100'250);
  const Picos t_back = t_fill + (30 + 10) * l2.period_ps;
  const Picos done = ceil_to(core, t_back) + (20 - 2) * core.period_ps;
  EXPECT_EQ(rig.sm(0).completed_at(1), done);
}

TEST(RoundTrip, AtomicIsExecutedAtTheL2) {
  Rig rig(small_config());
  rig.memory->memcpy_to_device(0x10000, 128);
  rig.sm(0).schedule(0, 1, isa::MemSpace::kGlobal, isa::MemKind::kAtomic, strided(0x10000, 4));
  rig.sm(0).schedule(0, 2, isa::MemSpace::kGlobal, isa::MemKind::kAtomic, strided(0x20000, 4));
  rig.run();
  // Token 2 is looked up one cycle after token 1 and misses to DRAM. An atomic request
  // carries its operands (8 + 128 bytes): at 64 bytes per cycle the SM port has credit
  // again two cycles after sending it, so token 2 also waits one cycle for the port.
  EXPECT_EQ(rig.sm(0).latency(1), kL2HitRoundTrip);
  EXPECT_EQ(rig.sm(0).latency(2), kL2HitRoundTrip + kDramLatency + 2 * kCycle);
  const auto stats = rig.stats();
  EXPECT_EQ(stats.sum("gpu.l2.slice[", "atomics"), 2);
  EXPECT_EQ(stats.get("gpu.noc.response_packets"), 2);
}

TEST(RoundTrip, ReductionCompletesLikeAStoreAndExecutesAtTheL2) {
  Rig rig(small_config());
  rig.sm(0).schedule(0, 1, isa::MemSpace::kGlobal, isa::MemKind::kReduction, strided(0x10000, 4));
  rig.run();
  EXPECT_EQ(rig.sm(0).latency(1), kCycle);
  rig.drain();
  const auto stats = rig.stats();
  EXPECT_EQ(stats.sum("gpu.l2.slice[", "atomics"), 1);
  EXPECT_EQ(stats.sum("gpu.dram.channel[", "read_bytes"), 128);  // the line is read, then updated
  EXPECT_EQ(stats.get("gpu.noc.response_packets"), 0);
}

}  // namespace
}  // namespace sassim::memsys
