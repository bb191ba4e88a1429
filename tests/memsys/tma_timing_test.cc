// Exact-cycle tests of TMA copies through the whole memory system (the L1 unit's TMA
// engine, the interconnect and the L2), with the timing of memsys/README.md.
#include <gtest/gtest.h>

#include "configs/config_loader.h"
#include "memsys_test_support.h"
#include "tests/support/tma_measurements.h"

namespace sassim::memsys {
namespace {

using testing::Rig;
using testing::small_config;
using testing::strided;

using testing::kCycle;

TEST(TmaTiming, BulkLoadOfL2ResidentDataTakesSetupTransferAndTheL2RoundTrip) {
  config::GpuConfig c = small_config();
  const std::uint32_t setup = 10, rate = 32, bytes = 1024;
  c.mutable_tma()->set_setup_latency_cycles(setup);
  c.mutable_tma()->set_bytes_per_cycle(rate);
  Rig rig(c);
  rig.memory->memcpy_to_device(0x10000, bytes);
  rig.sm(0).tma(0, TmaCopy{1, TmaKind::kLoad, bytes, {0x10000}});
  rig.run();
  // Last of 8 line requests (4 sectors each) leaves setup + 7 x 128 / 32 cycles after
  // submit, reaches the crossbar a cycle later, and its data is back 2 x 10 (crossbar) +
  // 30 (L2 hit) later.
  const std::uint64_t last_request = setup + (bytes / 128 - 1) * 128 / rate;
  const auto& noc = c.interconnect();
  EXPECT_EQ(rig.sm(0).latency(1),
            (last_request + 1 + 2 * noc.latency_cycles() + c.l2().hit_latency_cycles()) * kCycle);
  const auto stats = rig.stats();
  EXPECT_EQ(stats.get("gpu.sm[0].l1.sector_accesses"), 0);  // bypasses the L1
  EXPECT_EQ(stats.sum("gpu.l2.slice[", "sector_hits"), bytes / 32);
}

TEST(TmaTiming, StoreCompletesWhenItsLastWriteLeaves) {
  config::GpuConfig c = small_config();
  c.mutable_tma()->set_setup_latency_cycles(6);
  c.mutable_tma()->set_bytes_per_cycle(64);
  Rig rig(c);
  rig.sm(0).tma(0, TmaCopy{2, TmaKind::kStore, 256, {0x20000}});
  rig.run();
  EXPECT_EQ(rig.sm(0).latency(2), (6 + (256 / 128 - 1) * 128 / 64) * kCycle);
  rig.drain();
  EXPECT_EQ(rig.stats().sum("gpu.l2.slice[", "sector_accesses"), 256 / 32);
}

// A copy whose writes the L2 acknowledges (the SM's bulk async-groups wait for them).
TmaCopy acknowledged(std::uint32_t token, TmaKind kind, std::uint32_t bytes, std::uint64_t at) {
  TmaCopy copy{token, kind, bytes, {at}};
  copy.ack_token = token + 1;
  return copy;
}

// Cycle after submit of a copy's last request (line-aligned copies): `setup`, then one
// 128-byte line per 128 / `rate` cycles.
std::uint64_t last_request_cycle(std::uint32_t setup, std::uint32_t rate, std::uint32_t bytes) {
  return setup + (bytes / 128 - 1) * 128 / rate;
}

// Cycle its acknowledgement arrives for an L2-resident line: the header takes the path of
// a load's data, a cycle to the crossbar, the crossbar both ways and an L2 lookup (the
// write is looked up, not fetched).
std::uint64_t acknowledged_cycle(const config::GpuConfig& c, std::uint64_t last_request) {
  return last_request + 1 + 2 * c.interconnect().latency_cycles() + c.l2().hit_latency_cycles();
}

TEST(TmaTiming, StoreIsAcknowledgedAfterTheL2RoundTripOfItsLastWrite) {
  config::GpuConfig c = small_config();
  // One 136-byte write packet (header + 4 sectors) per 4 cycles fits the 64-byte
  // crossbar port.
  const std::uint32_t setup = 6, rate = 32, bytes = 256;
  c.mutable_tma()->set_setup_latency_cycles(setup);
  c.mutable_tma()->set_bytes_per_cycle(rate);
  Rig rig(c);
  rig.sm(0).tma(0, acknowledged(2, TmaKind::kStore, bytes, 0x20000));
  rig.run();
  const std::uint64_t last_request = last_request_cycle(setup, rate, bytes);
  EXPECT_EQ(rig.sm(0).latency(2), last_request * kCycle);
  EXPECT_EQ(rig.sm(0).completed_at(3) - rig.sm(0).submitted_at(2),
            acknowledged_cycle(c, last_request) * kCycle);
  EXPECT_EQ(rig.stats().sum("gpu.noc.", "response_packets"), bytes / 128);
}

TEST(TmaTiming, ReductionOfL2ResidentDataIsExecutedAtTheSliceAndAcknowledged) {
  config::GpuConfig c = small_config();
  const std::uint32_t setup = 10, rate = 32, bytes = 256;
  c.mutable_tma()->set_setup_latency_cycles(setup);
  c.mutable_tma()->set_bytes_per_cycle(rate);
  Rig rig(c);
  rig.memory->memcpy_to_device(0x10000, bytes);
  rig.sm(0).tma(0, acknowledged(4, TmaKind::kReduction, bytes, 0x10000));
  rig.run();
  const std::uint64_t last_request = last_request_cycle(setup, rate, bytes);
  EXPECT_EQ(rig.sm(0).latency(4), last_request * kCycle);
  EXPECT_EQ(rig.sm(0).completed_at(5) - rig.sm(0).submitted_at(4),
            acknowledged_cycle(c, last_request) * kCycle);
  rig.drain();
  const auto stats = rig.stats();
  EXPECT_EQ(stats.sum("gpu.l2.slice[", "atomics"), bytes / 128);  // one request per line
  EXPECT_EQ(stats.sum("gpu.l2.slice[", "sector_hits"), bytes / 32);
}

TEST(TmaTiming, ReductionCostsTheL2WhatTheEquivalentRedStreamCosts) {
  // 256 bytes not resident in the L2: as a TMA reduction (8 sector requests) and as two
  // warp REDs of 32 x 4 bytes (one request per line). The slices read the same sectors
  // from DRAM and execute the same read-modify-writes.
  const std::uint32_t bytes = 256;
  Rig tma(small_config());
  tma.sm(0).tma(0, acknowledged(1, TmaKind::kReduction, bytes, 0x40000));
  tma.run();
  tma.drain();
  Rig red(small_config());
  red.sm(0).schedule(0, 1, isa::MemSpace::kGlobal, isa::MemKind::kReduction, strided(0x40000, 4));
  red.sm(0).schedule(0, 2, isa::MemSpace::kGlobal, isa::MemKind::kReduction, strided(0x40080, 4));
  red.run();
  red.drain();
  const auto a = tma.stats();
  const auto b = red.stats();
  for (const char* stat : {"sector_accesses", "sector_hits", "sector_misses"}) {
    EXPECT_EQ(a.sum("gpu.l2.slice[", stat), b.sum("gpu.l2.slice[", stat)) << stat;
  }
  EXPECT_EQ(a.sum("gpu.l2.slice[", "sector_misses"), bytes / 32);
  EXPECT_EQ(a.sum("gpu.dram.channel[", "read_bytes"), bytes);
  EXPECT_EQ(b.sum("gpu.dram.channel[", "read_bytes"), bytes);
}

TEST(TmaTiming, H100SingleSectorLoadNearAndFar) {
  const config::GpuConfig c = config::load_config("h100");
  const std::uint64_t near = c.tma().setup_latency_cycles() + 1 +
                             2 * c.interconnect().latency_cycles() + c.l2().hit_latency_cycles();
  EXPECT_DOUBLE_EQ(measure::tma_load_latency(c, 32, false, 4), static_cast<double>(near));
  EXPECT_DOUBLE_EQ(measure::tma_load_latency(c, 32, true, 4),
                   static_cast<double>(near + 2 * c.interconnect().far_partition_latency_cycles()));
}

}  // namespace
}  // namespace sassim::memsys
