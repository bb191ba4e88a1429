// Exact-picosecond behaviour of the link simulator on hand-built topologies.
#include "system/link_simulator.h"

#include <gtest/gtest.h>

#include "ground/error.h"

#include "system/router.h"
#include "system/topology.h"
#include "system/transfer_plan.h"

namespace sassim::system {
namespace {

constexpr uint64_t kGBps = 1'000'000'000;  // 1 GB/s: 1 byte takes 1000 ps

// Two GPUs and one link each way of `bytes_per_s` and `latency_ps`.
Topology two_gpus(uint64_t bytes_per_s, int64_t latency_ps) {
  Topology t;
  const uint32_t a = t.add_vertex(VertexKind::kGpu, 0, "gpu0");
  const uint32_t b = t.add_vertex(VertexKind::kGpu, 0, "gpu1");
  t.add_duplex(a, b, LinkKind::kNvlink, bytes_per_s, latency_ps);
  return t;
}

Transfer send(uint32_t from, uint32_t to, uint64_t bytes, uint32_t program, bool reduce = false) {
  return Transfer{from, to, bytes, bytes, program, reduce};
}

TEST(LinkSimulator, SendTakesLatencyPlusBytesOverBandwidth) {
  const Topology topo = two_gpus(kGBps, 1500);
  Router router(topo);
  TransferPlan plan;
  plan.add(send(0, 1, 4096, plan.add_program(0)), {});
  const SimulationResult r = simulate(plan, router, {});
  EXPECT_EQ(r.makespan_ps, 1500 + 4096 * 1000);
  EXPECT_EQ(r.link_bytes[0], 4096u);
  EXPECT_EQ(r.link_busy_ps[0], 4096 * 1000);
  EXPECT_EQ(r.link_bytes[1], 0u);  // the other direction
}

TEST(LinkSimulator, SerialisationRoundsUp) {
  EXPECT_EQ(serialization_ps(1, 3 * kGBps), 334);  // 333.3 ps
  EXPECT_EQ(serialization_ps(3, 3 * kGBps), 1000);
  // 8 GiB at 1 GB/s needs more than 64 bits in between.
  EXPECT_EQ(serialization_ps(uint64_t{8} << 30, kGBps), int64_t{8589934592} * 1000);
}

TEST(LinkSimulator, TwoFlowsOnOneLinkTakeTwiceAsLong) {
  const Topology topo = two_gpus(kGBps, 0);
  Router router(topo);
  TransferPlan one;
  one.add(send(0, 1, 1000, one.add_program(0)), {});
  TransferPlan two;
  two.add(send(0, 1, 1000, two.add_program(0)), {});
  two.add(send(0, 1, 1000, two.add_program(0)), {});
  const int64_t alone = simulate(one, router, {}).makespan_ps;
  const SimulationResult shared = simulate(two, router, {});
  EXPECT_EQ(alone, 1'000'000);
  EXPECT_EQ(shared.makespan_ps, 2 * alone);
  // First come, first served: the first transfer is not slowed by the second.
  EXPECT_EQ(shared.arrival_ps[0], alone);
}

TEST(LinkSimulator, OppositeDirectionsDoNotShare) {
  const Topology topo = two_gpus(kGBps, 0);
  Router router(topo);
  TransferPlan plan;
  plan.add(send(0, 1, 1000, plan.add_program(0)), {});
  plan.add(send(1, 0, 1000, plan.add_program(1)), {});
  EXPECT_EQ(simulate(plan, router, {}).makespan_ps, 1'000'000);
}

// GPU -> switch -> GPU, the second link at `second_bytes_per_s`.
Topology through_switch(uint64_t second_bytes_per_s) {
  Topology t;
  t.add_vertex(VertexKind::kGpu, 0, "gpu0");
  t.add_vertex(VertexKind::kGpu, 0, "gpu1");
  const uint32_t sw = t.add_vertex(VertexKind::kNvswitch, 0, "switch");
  t.add_link(0, sw, LinkKind::kNvlink, 2 * kGBps, 700);
  t.add_link(sw, 1, LinkKind::kNvlink, second_bytes_per_s, 300);
  return t;
}

TEST(LinkSimulator, CutThroughAcrossASwitch) {
  // Same bandwidth: the hops overlap, the transfer pays one serialisation.
  const Topology even = through_switch(2 * kGBps);
  Router router(even);
  TransferPlan plan;
  plan.add(send(0, 1, 2000, plan.add_program(0)), {});
  EXPECT_EQ(simulate(plan, router, {}).makespan_ps, 700 + 1'000'000 + 300);
  // A slower second link sets the pace: 2000 bytes at 1 GB/s.
  const Topology slow = through_switch(kGBps);
  Router slow_router(slow);
  EXPECT_EQ(simulate(plan, slow_router, {}).makespan_ps, 700 + 2'000'000 + 300);
}

TEST(LinkSimulator, TailCannotOvertakeASlowerFirstLink) {
  // First link 2 GB/s, second 4 GB/s: the tail leaves the first at 1 us, so the second
  // cannot finish before 1 us + 700 ps even though its own serialisation is 0.5 us.
  Topology t;
  t.add_vertex(VertexKind::kGpu, 0, "gpu0");
  t.add_vertex(VertexKind::kGpu, 0, "gpu1");
  const uint32_t sw = t.add_vertex(VertexKind::kNvswitch, 0, "switch");
  t.add_link(0, sw, LinkKind::kNvlink, 2 * kGBps, 700);
  t.add_link(sw, 1, LinkKind::kNvlink, 4 * kGBps, 300);
  Router router(t);
  TransferPlan plan;
  plan.add(send(0, 1, 2000, plan.add_program(0)), {});
  EXPECT_EQ(simulate(plan, router, {}).makespan_ps, 1'000'000 + 700 + 300);
}

TEST(LinkSimulator, DependentTransferWaitsForArrival) {
  const Topology topo = two_gpus(kGBps, 100);
  Router router(topo);
  TransferPlan plan;
  const uint32_t a = plan.add(send(0, 1, 1000, plan.add_program(0)), {});
  plan.add(send(1, 0, 1000, plan.add_program(1)), {a});
  const SimulationResult r = simulate(plan, router, {});
  EXPECT_EQ(r.arrival_ps[0], 1'000'100);
  EXPECT_EQ(r.arrival_ps[1], 2 * 1'000'100);
}

TEST(LinkSimulator, StepLatencyIsTheLeastTimeOfAHop) {
  const Topology topo = two_gpus(kGBps, 100);
  Router router(topo);
  TransferPlan plan;
  const uint32_t a = plan.add(send(0, 1, 1000, plan.add_program(0)), {});
  plan.add(send(1, 0, 1000, plan.add_program(1)), {a});
  SimulationOptions options;
  options.nvlink_step_ps = 5000;
  options.net_step_ps = 1;  // not a network route
  // A step lasts its serialisation plus the step latency, which holds the link's 100 ps.
  EXPECT_EQ(simulate(plan, router, options).makespan_ps, 2 * (1'000'000 + 5000));
  // A step latency below the link's latency adds nothing.
  options.nvlink_step_ps = 60;
  EXPECT_EQ(simulate(plan, router, options).makespan_ps, 2 * 1'000'100);
}

TEST(LinkSimulator, ProgramRateLimitsItsTransfers) {
  const Topology topo = two_gpus(4 * kGBps, 0);
  Router router(topo);
  TransferPlan plan;
  const uint32_t program = plan.add_program(0);
  plan.add(send(0, 1, 1000, program), {});
  plan.add(send(0, 1, 1000, program), {});
  SimulationOptions options;
  options.program_bytes_per_s = kGBps;  // slower than the link
  // The program pushes 1000 bytes a microsecond; the link keeps up.
  EXPECT_EQ(simulate(plan, router, options).makespan_ps, 2'000'000);
  EXPECT_EQ(simulate(plan, router, {}).makespan_ps, 500'000);
}

TEST(LinkSimulator, MemoryTrafficOfSenderAndReceiver) {
  const Topology topo = two_gpus(kGBps, 0);
  Router router(topo);
  TransferPlan plan;
  plan.add(send(0, 1, 1000, plan.add_program(0), /*reduce=*/true), {});
  plan.add(send(0, 1, 500, plan.add_program(0)), {});
  const SimulationResult r = simulate(plan, router, {});
  EXPECT_EQ(r.gpu_read_bytes[0], 1500u);
  EXPECT_EQ(r.gpu_write_bytes[1], 1500u);
  EXPECT_EQ(r.gpu_read_bytes[1], 1000u);  // the reduction reads the receiver's own data
  EXPECT_EQ(r.gpu_programs[0], 2u);
  EXPECT_EQ(r.gpu_programs[1], 0u);
}

TEST(LinkSimulator, SameInputsSameResult) {
  const Topology topo = through_switch(kGBps);
  Router router(topo);
  TransferPlan plan;
  for (uint32_t i = 0; i < 50; ++i) plan.add(send(0, 1, 100 + i * 7, plan.add_program(0)), {});
  const SimulationResult a = simulate(plan, router, {});
  const SimulationResult b = simulate(plan, router, {});
  EXPECT_EQ(a.arrival_ps, b.arrival_ps);
  EXPECT_EQ(a.link_busy_ps, b.link_busy_ps);
}

TEST(TransferPlan, RejectsForwardDependencies) {
  TransferPlan plan;
  const uint32_t p = plan.add_program(0);
  EXPECT_THROW(plan.add(send(0, 1, 1, p), {0}), Error);
  EXPECT_THROW(plan.add(send(0, 1, 1, 7), {}), Error);
}

}  // namespace
}  // namespace sassim::system
