// Exact cycles of distributed shared memory: a load from another CTA of the cluster
// crosses the SM-to-SM network (cluster.dsmem_bytes_per_cycle into the network, then
// cluster.dsmem_latency_cycles); one from the CTA's own rank in the cluster window is
// an ordinary shared access.
#include <gtest/gtest.h>

#include "cluster_rig.h"

namespace sassim::sim {
namespace {

using testing::ClusterKernel;
using testing::ClusterRig;
using testing::make_inst;
using traces::Dim3;

constexpr std::uint32_t kLatency = 50, kBytesPerCycle = 32;

isa::StaticInst generic_load(std::uint64_t pc, std::uint16_t dst) {
  isa::StaticInst s = testing::make_load(pc, isa::RegRange{dst, 1}, 10);
  s.op.space = isa::MemSpace::kGeneric;
  return s;
}

// Rank 0 (SM 0) loads twice from the shared memory of rank `target` and uses both
// values; rank 1 (SM 1) does nothing but a NOP. Returns SM 0's issues.
testing::IssueRecorder run(std::uint32_t target) {
  ClusterRig rig({2});
  rig.config().mutable_cluster()->set_dsmem_latency_cycles(kLatency);
  rig.config().mutable_cluster()->set_dsmem_bytes_per_cycle(kBytesPerCycle);
  ClusterKernel kernel({2, 1, 1}, {2, 1, 1});
  traces::StaticInstTable& t = kernel.table();
  const std::vector<std::uint32_t> loads = {
      t.add(generic_load(0x10, 1)), t.add(generic_load(0x20, 2)),
      t.add(make_inst(0x30, isa::UnitClass::kIntAlu, {1}, isa::RegRange{3, 1})),
      t.add(make_inst(0x40, isa::UnitClass::kIntAlu, {2}, isa::RegRange{4, 1}))};
  const std::vector<std::uint32_t> idle = {t.add(make_inst(0x50, isa::UnitClass::kMisc, {}))};
  kernel.set_program([=](const Dim3& id) { return id.x == 0 ? loads : idle; });
  // Rank r's shared memory: window r + 1 above the CTA's own shared window.
  kernel.set_addresses([=](const Dim3&) {
    return ClusterKernel::kSharedBase + (1 + target) * ClusterKernel::kSharedWindow + 0x100;
  });
  rig.run(kernel);
  return rig.recorders[0];
}

TEST(DistributedSharedMemory, ARemoteLoadCrossesTheSmToSmNetwork) {
  const testing::IssueRecorder sm0 = run(1);
  // Loads issue at 2 and 3 and leave address generation (latency 1) at 3 and 4. Each
  // moves 32 x 4 bytes: the port is busy 128 / 32 = 4 cycles per load, so the second
  // starts when the first has left (7); each completes the latency after leaving.
  const std::uint64_t address_stage = 1, port_cycles = 32 * 4 / kBytesPerCycle;
  const std::uint64_t first_done = 2 + address_stage + port_cycles + kLatency;
  const std::uint64_t second_done = 2 + address_stage + 2 * port_cycles + kLatency;
  EXPECT_EQ(sm0.cycle_of(0x30), first_done);   // 57
  EXPECT_EQ(sm0.cycle_of(0x40), second_done);  // 61
}

TEST(DistributedSharedMemory, TheOwnRankIsAnOrdinarySharedAccess) {
  const testing::IssueRecorder sm0 = run(0);
  // Through the L1 port of the rig (1 cycle): issued at 2, leaves the address stage at
  // 3, back at 4; the second one cycle later.
  EXPECT_EQ(sm0.cycle_of(0x30), 4U);
  EXPECT_EQ(sm0.cycle_of(0x40), 5U);
}

}  // namespace
}  // namespace sassim::sim
