// Exact cycles of the cluster barrier (UCGABAR_ARV / UCGABAR_WAIT): warps on two SMs
// resume `cluster.barrier_latency_cycles` after the last arrival whichever SM it was
// on; an exiting warp stops being waited for; a CTA without a cluster is a cluster of
// one.
#include <gtest/gtest.h>

#include "cluster_rig.h"
#include "sm_harness.h"

namespace sassim::sim {
namespace {

using testing::ClusterKernel;
using testing::ClusterRig;
using testing::make_inst;
using testing::warp_text;
using traces::Dim3;

constexpr std::uint32_t kLatency = 20;

isa::StaticInst control_op(std::uint64_t pc, isa::ControlKind kind) {
  isa::StaticInst s = make_inst(pc, isa::UnitClass::kUniform, {});
  s.op.control = kind;
  return s;
}

struct TwoCtaCluster {
  ClusterRig rig{{2}};
  ClusterKernel kernel{{2, 1, 1}, {2, 1, 1}};
  std::uint64_t int_latency = 0;

  // The CTA of rank `late` runs two dependent INT instructions first, then `late_tail`.
  TwoCtaCluster(std::uint32_t late, bool late_arrives) {
    rig.config().mutable_cluster()->set_barrier_latency_cycles(kLatency);
    int_latency = rig.config().sm().units().int_alu().latency_cycles();
    traces::StaticInstTable& t = kernel.table();
    const std::uint32_t arrive = t.add(control_op(0x10, isa::ControlKind::kClusterArrive));
    const std::uint32_t wait = t.add(control_op(0x20, isa::ControlKind::kClusterWait));
    const std::uint32_t nop = t.add(make_inst(0x30, isa::UnitClass::kMisc, {}));
    const std::uint32_t int1 =
        t.add(make_inst(0x40, isa::UnitClass::kIntAlu, {}, isa::RegRange{1, 1}));
    const std::uint32_t int2 =
        t.add(make_inst(0x50, isa::UnitClass::kIntAlu, {1}, isa::RegRange{2, 1}));
    std::vector<std::uint32_t> early = {arrive, wait, nop};
    std::vector<std::uint32_t> slow = {int1, int2};
    if (late_arrives) slow.insert(slow.end(), {arrive, wait, nop});
    kernel.set_program([=](const Dim3& id) { return id.x == late ? slow : early; });
    rig.run(kernel);
  }
};

class ClusterBarrierAcrossSms : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(ClusterBarrierAcrossSms, WaitersResumeTheLatencyAfterTheLastArrival) {
  const std::uint32_t late = GetParam(), early = 1 - late;  // rank r runs on SM r
  TwoCtaCluster c(late, true);
  // Placed at 1, issuing from 2: the late warp's INTs at 2 and 2 + latency, its arrival
  // the cycle after (T); the early warp arrived at 2 and waits from 3.
  const std::uint64_t last_arrival = 2 + c.int_latency + 1;
  EXPECT_EQ(c.rig.recorders[late].cycle_of(0x10), last_arrival);
  EXPECT_EQ(c.rig.recorders[early].cycle_of(0x20), 3U);
  EXPECT_EQ(c.rig.recorders[early].cycle_of(0x30), last_arrival + kLatency);
  // The late warp's own wait finds the phase complete and holds it as long.
  EXPECT_EQ(c.rig.recorders[late].cycle_of(0x20), last_arrival + 1);
  EXPECT_EQ(c.rig.recorders[late].cycle_of(0x30), last_arrival + kLatency);
  const SmCounters& waiter = c.rig.sms[early]->counters();
  EXPECT_EQ(waiter.barrier_waits, 1U);
  EXPECT_EQ(c.rig.sms[late]->counters().barrier_waits, 0U);
  // At the barrier from the cycle after its wait through the last arrival.
  EXPECT_EQ(waiter.warp_cycles[static_cast<std::size_t>(WarpCycleState::kBarrier)],
            last_arrival - 3);
}

INSTANTIATE_TEST_SUITE_P(LateSm, ClusterBarrierAcrossSms, ::testing::Values(0U, 1U));

TEST(ClusterBarrier, AnExitingWarpIsNoLongerWaitedFor) {
  TwoCtaCluster c(1, false);
  // SM 1's warp exits after its second INT (issued at 2 + latency), the cycle after.
  const std::uint64_t exit = 2 + c.int_latency + 1;
  EXPECT_EQ(c.rig.recorders[0].cycle_of(0x30), exit + kLatency);
}

class ClusterOfOne : public testing::SmHarness {};

TEST_F(ClusterOfOne, ACtaWithoutAClusterSynchronisesItsOwnWarps) {
  config_.mutable_sm()->set_sub_cores(2);  // one warp per sub-core
  config_.mutable_cluster()->set_barrier_latency_cycles(kLatency);
  run({warp_text(0, {"0000 ffffffff 0 UCGABAR_ARV 0 0", "0010 ffffffff 0 UCGABAR_WAIT 0 0",
                     "0020 ffffffff 0 NOP 0 0"}),
       warp_text(1, {"0100 ffffffff 1 R1 IADD3 0 0", "0110 ffffffff 1 R2 IADD3 1 R1 0",
                     "0120 ffffffff 0 UCGABAR_ARV 0 0", "0130 ffffffff 0 UCGABAR_WAIT 0 0",
                     "0140 ffffffff 0 NOP 0 0"})},
      100, 90);
  const std::uint64_t last_arrival = 1 + config_.sm().units().int_alu().latency_cycles() + 1;
  EXPECT_EQ(recorder_.cycle_of(0x120, 1), last_arrival);
  EXPECT_EQ(recorder_.cycle_of(0x20, 0), last_arrival + kLatency);
  EXPECT_EQ(recorder_.cycle_of(0x140, 1), last_arrival + kLatency);
}

}  // namespace
}  // namespace sassim::sim
