// Exact cycles of the accesses of other SMs to an SM's shared memory
// (sim/cluster_shared_access.cc): a distributed shared memory access arriving at an SM takes
// its shared data path (l1.data_bytes_per_cycle, the byte credit of the SM's own
// shared accesses in memsys::L1Unit) for ceil(bytes / data_bytes_per_cycle) cycles,
// delaying that SM's own LDS and the other arrivals. SMs on a real memory system
// (memsys testing config, l1.data_bytes_per_cycle cut to 32), clusters on one GPC.
#include <gtest/gtest.h>

#include "cluster_rig.h"
#include "tests/memsys/memsys_test_support.h"

namespace sassim::sim {
namespace {

using testing::ClusterKernel;
using testing::ClusterRig;
using testing::make_inst;
using traces::Dim3;

// Network: 128 bytes per cycle into the SM-to-SM network, latency 10 (5 there, 5 back).
constexpr std::uint32_t kLatency = 10, kNetworkBytesPerCycle = 128, kDataBytesPerCycle = 32;

void use_memory_system(ClusterRig& rig) {
  const config::GpuConfig memory = memsys::testing::small_config();
  config::GpuConfig& c = rig.config();
  *c.mutable_l1() = memory.l1();
  *c.mutable_interconnect() = memory.interconnect();
  *c.mutable_l2() = memory.l2();
  *c.mutable_dram() = memory.dram();
  c.mutable_l1()->set_data_bytes_per_cycle(kDataBytesPerCycle);
  c.mutable_cluster()->set_dsmem_latency_cycles(kLatency);
  c.mutable_cluster()->set_dsmem_bytes_per_cycle(kNetworkBytesPerCycle);
  rig.use_memory_system();
}

isa::StaticInst shared_access(std::uint64_t pc, isa::MemKind kind, isa::MemSpace space,
                              std::uint16_t reg) {
  isa::StaticInst s = testing::make_load(pc, isa::RegRange{reg, 1}, 5);
  s.op.mem = kind;
  s.op.space = space;
  if (kind == isa::MemKind::kStore) s.num_dst = 0;
  return s;
}

// The address of rank r's shared memory (offset 0x100) for a CTA of the cluster.
std::uint64_t rank_window(std::uint32_t rank) {
  return ClusterKernel::kSharedBase + (1 + rank) * ClusterKernel::kSharedWindow + 0x100;
}

// Rank 0 (SM 0) stores 32 x 4 = 128 bytes into the shared memory of rank `target` at
// cycle 2; rank 1 (SM 1) computes an address (INT, 6 cycles), loads from its own
// shared memory with it (LDS, issued at 8) and uses the value. Returns SM 1's issues.
testing::IssueRecorder run_store_and_lds(std::uint32_t target) {
  ClusterRig rig({2});
  use_memory_system(rig);
  ClusterKernel kernel({2, 1, 1}, {2, 1, 1});
  traces::StaticInstTable& t = kernel.table();
  const std::vector<std::uint32_t> store = {
      t.add(shared_access(0x10, isa::MemKind::kStore, isa::MemSpace::kGeneric, 0))};
  const std::vector<std::uint32_t> lds = {
      t.add(make_inst(0x10, isa::UnitClass::kIntAlu, {}, isa::RegRange{5, 1})),
      t.add(shared_access(0x20, isa::MemKind::kLoad, isa::MemSpace::kShared, 6)),
      t.add(make_inst(0x30, isa::UnitClass::kIntAlu, {6}, isa::RegRange{7, 1}))};
  kernel.set_program([=](const Dim3& id) { return id.x == 0 ? store : lds; });
  kernel.set_addresses([=](const Dim3& id) {
    return id.x == 0 ? rank_window(target) : ClusterKernel::kSharedBase + 0x100;
  });
  rig.run(kernel);
  return rig.recorders[1];
}

TEST(RemoteSharedMemory, ARemoteStoreArrivingAtAnSmDelaysItsOwnLds) {
  const std::uint64_t shared_latency = memsys::testing::small_config().l1().shared_latency_cycles();
  // Without the remote store (rank 0 stores into its own shared memory): the LDS issued
  // at 8 leaves address generation at 9 and is back shared latency (10) later.
  const testing::IssueRecorder alone = run_store_and_lds(0);
  ASSERT_EQ(alone.cycle_of(0x20), 8U);
  EXPECT_EQ(alone.cycle_of(0x30), 8 + 1 + shared_latency);  // 19
  // The store issued at 2 leaves address generation at 3, the network port
  // 128 / 128 = 1 cycle later (4), and reaches SM 1 kLatency / 2 = 5 cycles after: at
  // 9, after that cycle's own accesses. It holds SM 1's data path for 128 / 32 = 4
  // cycles, 9 to 12. The LDS reaches the data path at 10 (the L1 sees it the cycle
  // after it left address generation) and takes it at 13: 3 cycles later.
  const testing::IssueRecorder delayed = run_store_and_lds(1);
  const std::uint64_t arrival = 2 + 1 + 128 / kNetworkBytesPerCycle + kLatency / 2;
  ASSERT_EQ(arrival, 9U);
  const std::uint64_t lds_on_data_path = arrival + 128 / kDataBytesPerCycle;  // 13
  EXPECT_EQ(delayed.cycle_of(0x30), lds_on_data_path + shared_latency - 1);   // 22
}

// Ranks 0 and 2 (SMs 0 and 2) each store 128 bytes into rank 1's shared memory (SM 1)
// at cycle 2, then wait at MEMBAR for the store's reply (an access to a CTA that has
// exited takes no data path). Returns the cycles of the
// instruction after the MEMBAR on SMs 0 and 2.
std::pair<std::uint64_t, std::uint64_t> run_two_stores(bool reversed) {
  ClusterRig rig({3});
  use_memory_system(rig);
  if (reversed) rig.reverse_tick_order();
  ClusterKernel kernel({3, 1, 1}, {3, 1, 1});
  traces::StaticInstTable& t = kernel.table();
  isa::StaticInst membar = make_inst(0x20, isa::UnitClass::kMisc, {});
  membar.op.control = isa::ControlKind::kMemoryBarrier;
  const std::vector<std::uint32_t> store = {
      t.add(shared_access(0x10, isa::MemKind::kStore, isa::MemSpace::kGeneric, 0)), t.add(membar),
      t.add(make_inst(0x30, isa::UnitClass::kMisc, {}))};
  // Rank 1 stays resident past the arrivals: three dependent INT instructions.
  const std::vector<std::uint32_t> idle = {
      t.add(make_inst(0x40, isa::UnitClass::kIntAlu, {}, isa::RegRange{5, 1})),
      t.add(make_inst(0x50, isa::UnitClass::kIntAlu, {5}, isa::RegRange{6, 1})),
      t.add(make_inst(0x60, isa::UnitClass::kIntAlu, {6}, isa::RegRange{7, 1}))};
  kernel.set_program([=](const Dim3& id) { return id.x == 1 ? idle : store; });
  kernel.set_addresses([](const Dim3&) { return rank_window(1); });
  rig.run(kernel);
  return {rig.recorders[0].cycle_of(0x30), rig.recorders[2].cycle_of(0x30)};
}

TEST(RemoteSharedMemory, ArrivalsInOneCycleQueueOnTheDataPathInSmOrder) {
  // Both stores arrive at SM 1 at 9 (as above). SM 0's, first by sending SM, takes the
  // data path at once and its reply is back kLatency - 5 = 5 cycles later, at 14 (= the
  // unloaded leave + kLatency); SM 2's waits until the first's 128 / 32 = 4 cycles are
  // over: 18. The same whichever order the SMs are ticked in.
  const std::uint64_t arrival = 2 + 1 + 128 / kNetworkBytesPerCycle + kLatency / 2;
  const std::uint64_t back = kLatency - kLatency / 2;
  for (bool reversed : {false, true}) {
    const auto [first, second] = run_two_stores(reversed);
    EXPECT_EQ(first, arrival + back) << reversed;                              // 14
    EXPECT_EQ(second, arrival + 128 / kDataBytesPerCycle + back) << reversed;  // 18
  }
}

}  // namespace
}  // namespace sassim::sim
