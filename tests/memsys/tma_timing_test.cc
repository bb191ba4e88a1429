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

constexpr Picos kCycle = 1000;  // small_config(): every clock at 1 GHz

TEST(TmaTiming, BulkLoadOfL2ResidentDataTakesSetupTransferAndTheL2RoundTrip) {
  config::GpuConfig c = small_config();
  const std::uint32_t setup = 10, rate = 32, bytes = 1024;
  c.mutable_tma()->set_setup_latency_cycles(setup);
  c.mutable_tma()->set_bytes_per_cycle(rate);
  Rig rig(c);
  rig.memory->memcpy_to_device(0x10000, bytes);
  rig.sm(0).tma(0, TmaCopy{1, TmaKind::kLoad, bytes, {0x10000}});
  rig.run();
  // Last of 32 sector requests leaves setup + 31 cycles after submit, reaches the
  // crossbar a cycle later, and its data is back 2 x 10 (crossbar) + 30 (L2 hit) later.
  const std::uint64_t last_request = setup + (bytes / 32 - 1) * 32 / rate;
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
  EXPECT_EQ(rig.sm(0).latency(2), (6 + (256 / 32 - 1) * 32 / 64) * kCycle);
  rig.drain();
  EXPECT_EQ(rig.stats().sum("gpu.l2.slice[", "sector_accesses"), 256 / 32);
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
