// What make_memory_system refuses to build, and how it says so.
#include <gtest/gtest.h>

#include <string>

#include "ground/error.h"
#include "memsys/memory_system.h"
#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

using testing::build_error;

TEST(MemsysConfig, SmallConfigBuildsInTickOrder) {
  auto memory = make_memory_system(testing::small_config());
  const auto units = memory->units();
  // 2 DRAM channels, 4 L2 slices, the crossbar, the hub (the collectives' traffic,
  // memsys/hub_traffic.h: idle, and never ticked, without collectives), 2 L1s.
  ASSERT_EQ(units.size(), 2u + 4 + 1 + 1 + 2);
  EXPECT_EQ(units[0].first, ClockDomain::kDram);
  EXPECT_EQ(units[0].second->name(), "gpu.dram.channel[0]");
  EXPECT_EQ(units[2].first, ClockDomain::kL2);
  EXPECT_EQ(units[2].second->name(), "gpu.l2.slice[0]");
  EXPECT_EQ(units[6].second->name(), "gpu.noc");
  EXPECT_EQ(units[7].first, ClockDomain::kCore);
  EXPECT_EQ(units[7].second->name(), "gpu.hub");
  EXPECT_EQ(units[8].first, ClockDomain::kCore);
  EXPECT_EQ(units[8].second->name(), "gpu.sm[0].l1");
  EXPECT_EQ(units[9].second->name(), "gpu.sm[1].l1");
}

TEST(MemsysConfig, MissingFieldIsNamed) {
  config::GpuConfig c = testing::small_config();
  c.mutable_l1()->clear_hit_latency_cycles();
  EXPECT_NE(build_error(c).find("l1.hit_latency_cycles: missing"), std::string::npos)
      << build_error(c);
}

TEST(MemsysConfig, MorePartitionsThanSmsIsRefusedNamingTheField) {
  config::GpuConfig c = testing::small_config();  // 2 SMs, 4 slices
  c.mutable_interconnect()->set_l2_partitions(3);
  EXPECT_NE(build_error(c).find("interconnect.l2_partitions: 3 must be at least 1 and at most "
                                "l2.slices (4) and num_sms (2)"),
            std::string::npos)
      << build_error(c);
  c.mutable_interconnect()->set_l2_partitions(2);
  EXPECT_EQ(build_error(c), "");
}

TEST(MemsysConfig, UnknownHashListsTheKnownOnes) {
  config::GpuConfig c = testing::small_config();
  c.mutable_l2()->set_address_hash("ipolly");
  EXPECT_NE(build_error(c).find("l2.address_hash = \"ipolly\" is not one of: linear, xor, ipoly "
                                "(did you mean \"ipoly\"?)"),
            std::string::npos)
      << build_error(c);
}

TEST(MemsysConfig, CarveOutLargerThanTheArrayIsRefused) {
  config::GpuConfig c = testing::small_config();
  c.mutable_l1()->set_shared_memory_bytes(128 * 1024);
  EXPECT_NE(build_error(c).find("l1.shared_memory_bytes"), std::string::npos) << build_error(c);
}

TEST(MemsysConfig, L1AndL2MustShareTheSectorGeometry) {
  config::GpuConfig c = testing::small_config();
  c.mutable_l2()->set_sector_bytes(64);
  EXPECT_NE(build_error(c).find("l2.line_bytes/l2.sector_bytes"), std::string::npos)
      << build_error(c);
}

TEST(MemsysConfig, TooManySectorsPerLineIsRefused) {
  config::GpuConfig c = testing::small_config();
  c.mutable_l1()->set_line_bytes(1024);
  EXPECT_NE(build_error(c).find("l1.line_bytes"), std::string::npos) << build_error(c);
}

TEST(MemsysConfig, CacheThatIsNotWholeSetsIsRefused) {
  config::GpuConfig c = testing::small_config();
  c.mutable_l1()->set_associativity(3);
  EXPECT_NE(build_error(c).find("l1 data cache"), std::string::npos) << build_error(c);
}

TEST(MemsysConfig, UnknownHashIsRefused) {
  config::GpuConfig c = testing::small_config();
  c.mutable_l2()->set_address_hash("fancy");
  EXPECT_NE(build_error(c).find("l2.address_hash"), std::string::npos) << build_error(c);
}

TEST(MemsysConfig, AllCarvedOutLeavesNoL1DataCache) {
  config::GpuConfig c = testing::small_config();
  c.mutable_l1()->set_shared_memory_bytes(64 * 1024);
  testing::Rig rig(c);
  rig.sm(0).load(0, 1, testing::strided(0x1000, 4));
  rig.run();
  rig.sm(0).load(rig.now(), 2, testing::strided(0x1000, 4));
  rig.run();
  EXPECT_EQ(rig.stats().get("gpu.sm[0].l1.sector_hits"), 0);
  EXPECT_EQ(rig.sm(0).latency(2), (20 + 2 * 10 + 30) * 1000u);  // an L2 hit
}

}  // namespace
}  // namespace sassim::memsys

namespace sassim::memsys {
namespace {

TEST(MemsysState, DumpShowsQueuesAndTheOldestRequest) {
  testing::Rig rig(testing::small_config());
  rig.sm(0).load(0, 42, testing::strided(0x10000, 128, 4));
  // Stops at the first step from 30 ns on: slice 0's fill (at 113 ns) is the next event.
  rig.engine.run_until([&] { return rig.now() >= 30'000; });
  EXPECT_EQ(rig.now(), 113'000u);
  const std::string dump = rig.engine.dump_state();
  EXPECT_NE(dump.find("gpu.sm[0].l1: lsu 0 + shared 0 of 16"), std::string::npos) << dump;
  EXPECT_NE(dump.find("mshr 4/8"), std::string::npos) << dump;
  EXPECT_NE(dump.find("oldest: token 42 submitted at 1000 ps, 4/4 lines issued, 4 outstanding"),
            std::string::npos)
      << dump;
  EXPECT_NE(dump.find("gpu.l2.slice[0]:"), std::string::npos) << dump;
  // 64 queue entries + 10 for the packets on the wires (interconnect.latency_cycles).
  EXPECT_NE(dump.find("responses 0/74, to interconnect 0/64"), std::string::npos) << dump;
  EXPECT_NE(dump.find("gpu.l2.slice[1]: requests 0/74, fills 1/65, pipeline 0, mshr 1/16, "
                      "waiting for DRAM queues 0, oldest miss: line 0x201"),
            std::string::npos)
      << dump;
  EXPECT_EQ(dump.find("gpu.sm[1].l1"), std::string::npos) << "idle units are left out";
}

}  // namespace
}  // namespace sassim::memsys
