// Collectives on small systems against their closed-form times, and on the presets
// against the physical bounds of their links.
#include <gtest/gtest.h>

#include "ground/error.h"
#include "system/plans.h"
#include "system/system_config_loader.h"
#include "system/system_model.h"
#include "tests/system/system_fixtures.h"

namespace sassim::system {
namespace {

constexpr int64_t kPsPerByte = 1000;  // 1 GB/s links

CollectiveCall call(CollectiveOp op, uint64_t bytes, Algorithm a = Algorithm::kAuto,
                    Protocol p = Protocol::kSimple) {
  CollectiveCall c;
  c.op = op;
  c.bytes = bytes;
  c.algorithm = a;
  c.protocol = p;
  return c;
}

TEST(Collective, SendTakesLatencyPlusBytesOverBandwidth) {
  // Two GPUs, one direct link of 1 GB/s and 2 ns; one slice.
  const SystemModel model(testing::small_system(2, 1, false, 2, 0));
  CollectiveCall c = call(CollectiveOp::kSend, 1 << 20);
  const CollectiveResult r = model.run(c);
  EXPECT_EQ(r.time_ps, 2000 + (1 << 20) * kPsPerByte);
  EXPECT_EQ(r.algorithm, Algorithm::kP2p);
  EXPECT_DOUBLE_EQ(r.busbw_gb_per_s, r.algbw_gb_per_s);
}

TEST(Collective, SendAcrossNodesPaysEveryHopOnceAndTheNicsBandwidth) {
  // Two nodes of one GPU: GPU -> PCIe (50 GB/s, 300 ns) -> NIC -> network (1 GB/s, 600 ns
  // each way, 130 ns switch) -> NIC -> PCIe -> GPU. Cut through, the slowest link sets
  // the pace and every latency counts once.
  std::string text = testing::small_system_text(1, 0, false, 0, 0);
  text.replace(text.find("gpus_per_node: 1"), 16,
               "gpus_per_node: 1 nodes: 2 nic { per_node: 1 gbit_per_s: 8 "
               "payload_efficiency: 1 latency_ns: 600 } network { switch_latency_ns: 130 }");
  text.replace(text.find("latency_ns: 0 }\ncomm"), 13, "latency_ns: 300");
  const SystemModel model(parse_system_config(text, "two_nodes.txtpb"));
  ASSERT_EQ(model.gpu_count(), 2u);
  const CollectiveResult r = model.run(call(CollectiveOp::kSend, 1 << 20));
  EXPECT_EQ(r.time_ps, (1 << 20) * kPsPerByte + 2 * 300'000 + 2 * 600'000 + 130'000);
}

TEST(Collective, PipelinedSendPaysOneLatency) {
  // 64 slices of 16 KiB follow each other on the link: still latency + bytes / bandwidth.
  const SystemModel model(testing::small_system(2, 1, false, 2, 0, 0, 16384));
  EXPECT_EQ(model.run(call(CollectiveOp::kSend, 1 << 20)).time_ps, 2000 + (1 << 20) * kPsPerByte);
}

TEST(Collective, RingAllReduceClosedForm) {
  // 4 GPUs on a switch: 2 links of 1 GB/s each, 30 ns to the switch, 30 + 40 ns from it,
  // 1.5 us per step. Each of the 2(n-1) = 6 steps moves B/4 over an idle uplink and
  // downlink, cut through: B/4 / 2 GB/s, plus the step latency (which holds the route's
  // 100 ns).
  const SystemModel model(testing::small_system(4, 2, true, 30, 40, 1.5));
  const uint64_t bytes = 4 << 20;
  const CollectiveResult r =
      model.run(call(CollectiveOp::kAllReduce, bytes, Algorithm::kRing, Protocol::kSimple));
  const int64_t step = (1 << 20) * kPsPerByte / 2 + 1'500'000;
  EXPECT_EQ(r.time_ps, 6 * step);
  EXPECT_EQ(r.channels, 1u);
  // Each uplink carried 6 quarters; utilisation is that over the time.
  const double busy = 6.0 * (1 << 20) * kPsPerByte / 2;
  for (std::size_t id = 0; id < r.link_bytes.size(); ++id) {
    EXPECT_EQ(r.link_bytes[id], 6u << 20) << id;
    EXPECT_DOUBLE_EQ(r.link_utilisation[id], busy / static_cast<double>(r.time_ps)) << id;
  }
  // Ring all_reduce reads and writes about twice the buffer on every GPU.
  for (const GpuSide& g : r.gpus) {
    EXPECT_EQ(g.sms, 1u);
    EXPECT_EQ(g.memory_write_bytes, 6u << 20);
    EXPECT_EQ(g.memory_read_bytes, (6u << 20) + (3u << 20));  // sends + 3 reductions
  }
}

TEST(Collective, RingAllGatherAndReduceScatterTakeHalfTheSteps) {
  const SystemModel model(testing::small_system(4, 2, true, 30, 40, 1.5));
  const int64_t step = (1 << 20) * kPsPerByte / 2 + 1'500'000;
  EXPECT_EQ(model.run(call(CollectiveOp::kAllGather, 4 << 20, Algorithm::kRing)).time_ps, 3 * step);
  EXPECT_EQ(model.run(call(CollectiveOp::kReduceScatter, 4 << 20, Algorithm::kRing)).time_ps,
            3 * step);
}

TEST(Collective, TreeAllReducePipelinesTwoSlicesThroughTheChain) {
  // One node of 4 GPUs is a chain 3 -> 2 -> 1 -> 0 up and back down: 6 hops. Two slices of
  // S/2 follow each other one slice time apart: 6 hops of the first plus one slice time,
  // and the step latency (1.5 us, holding the route's 100 ns) once per hop.
  const uint64_t bytes = 2 << 20;
  const SystemModel model(testing::small_system(4, 2, true, 30, 40, 1.5, bytes / 2));
  const CollectiveResult r =
      model.run(call(CollectiveOp::kAllReduce, bytes, Algorithm::kTree, Protocol::kSimple));
  const int64_t half = (1 << 20) * kPsPerByte / 2;  // S/2 at 2 GB/s
  EXPECT_EQ(r.time_ps, 7 * half + 6 * 1'500'000);
  // Every GPU but the root sends S up; every GPU but the last sends S down.
  EXPECT_EQ(r.gpus[0].memory_read_bytes, bytes + bytes);  // its own part reduced, then sent
  EXPECT_EQ(r.gpus[3].memory_write_bytes, bytes);
}

TEST(Collective, BusBandwidthDefinitions) {
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveOp::kAllReduce, 8), 14.0 / 8.0);
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveOp::kAllGather, 8), 7.0 / 8.0);
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveOp::kReduceScatter, 4), 3.0 / 4.0);
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveOp::kAllToAll, 16), 15.0 / 16.0);
  EXPECT_DOUBLE_EQ(bus_factor(CollectiveOp::kSendRecv, 8), 1.0);
  const SystemModel model(testing::small_system(4, 2, true, 30, 40, 1.5));
  const CollectiveResult r = model.run(call(CollectiveOp::kAllGather, 4 << 20, Algorithm::kRing));
  EXPECT_DOUBLE_EQ(r.algbw_gb_per_s, (4 << 20) / (static_cast<double>(r.time_ps) * 1e-12) / 1e9);
  EXPECT_DOUBLE_EQ(r.busbw_gb_per_s, r.algbw_gb_per_s * 3.0 / 4.0);
}

TEST(Collective, AllToAllSharesEachGpusPort) {
  // 4 GPUs on a switch, 1 GB/s ports: each GPU sends 3 quarters out through its port.
  const SystemModel model(testing::small_system(4, 1, true, 0, 0));
  const CollectiveResult r = model.run(call(CollectiveOp::kAllToAll, 4 << 20));
  EXPECT_EQ(r.time_ps, 3 * (1 << 20) * kPsPerByte);
}

TEST(Collective, NvlsMovesOneBufferAndAPartThroughEachPort) {
  // 4 GPUs on an NVLink SHARP switch: every GPU sends its copy of each part up to be
  // reduced (S in all) and stores the part it owns (S/4); it receives its reduced part
  // (S/4) and every part's multicast (S).
  std::string text = testing::small_system_text(4, 2, true, 30, 40);
  text.replace(text.find("present: true"), 13, "present: true generation: 3 nvls: true");
  const SystemModel model(parse_system_config(text, "nvls.txtpb"));
  const uint64_t bytes = 4 << 20;
  const CollectiveResult r =
      model.run(call(CollectiveOp::kAllReduce, bytes, Algorithm::kNvls, Protocol::kSimple));
  ASSERT_EQ(r.algorithm, Algorithm::kNvls);
  for (std::size_t id = 0; id < r.link_bytes.size(); ++id) {
    EXPECT_EQ(r.link_bytes[id], bytes + bytes / 4) << id;
  }
  // all_gather is the multicast alone: S/4 up, S down.
  const CollectiveResult ag =
      model.run(call(CollectiveOp::kAllGather, bytes, Algorithm::kNvls, Protocol::kSimple));
  const Topology& t = model.topology();
  for (std::size_t id = 0; id < ag.link_bytes.size(); ++id) {
    const bool up = t.vertex(t.link(static_cast<uint32_t>(id)).from).kind == VertexKind::kGpu;
    EXPECT_EQ(ag.link_bytes[id], up ? bytes / 4 : bytes) << id;
  }
}

TEST(Collective, PresetsReachTheirLinksBandwidth) {
  // Large ring collectives are bound by the GPU's effective NVLink bandwidth, and
  // cannot exceed it (busbw <= 18 x 25 x 0.824 = 370.8 GB/s on the DGX H100).
  const SystemModel h100(load_system_config("h100x8"));
  const CollectiveResult ag =
      h100.run(call(CollectiveOp::kAllGather, 1ull << 30, Algorithm::kRing));
  EXPECT_LE(ag.busbw_gb_per_s, 370.8);
  EXPECT_GT(ag.busbw_gb_per_s, 0.95 * 370.8);
  // NVLS all_reduce moves S (1 + 1/n) / 0.85 through each port: busbw ~ 2(n-1)/n x
  // 370.8 x 0.85 / (1 + 1/n) = 490 GB/s at best.
  const CollectiveResult nvls = h100.run(call(CollectiveOp::kAllReduce, 1ull << 30));
  EXPECT_EQ(nvls.algorithm, Algorithm::kNvls);
  EXPECT_LE(nvls.busbw_gb_per_s, 490.4);
  EXPECT_GT(nvls.busbw_gb_per_s, 0.95 * 490.4);
  EXPECT_EQ(nvls.gpus[0].sms, 16u);
}

TEST(Collective, TunerPicksLowLatencyForSmallAndBandwidthForLarge) {
  const SystemModel a100(load_system_config("a100x8"));
  const CollectiveResult small =
      a100.run(call(CollectiveOp::kAllReduce, 8, Algorithm::kAuto, Protocol::kAuto));
  EXPECT_EQ(small.protocol, Protocol::kLl);
  const CollectiveResult large =
      a100.run(call(CollectiveOp::kAllReduce, 1ull << 30, Algorithm::kAuto, Protocol::kAuto));
  EXPECT_EQ(large.protocol, Protocol::kSimple);
  // The choice is the candidate of least predicted time.
  const CollectiveCall c =
      call(CollectiveOp::kAllReduce, 1 << 16, Algorithm::kAuto, Protocol::kAuto);
  const CollectiveResult mid = a100.run(c);
  for (const auto& [a, p] : a100.candidates(c)) {
    EXPECT_LE(a100.predict_ps(c, mid.algorithm, mid.protocol), a100.predict_ps(c, a, p));
  }
}

TEST(Collective, SameCallSameResult) {
  const SystemModel model(load_system_config("h200x16-2node"));
  const CollectiveCall c =
      call(CollectiveOp::kAllReduce, 96 << 20, Algorithm::kAuto, Protocol::kAuto);
  const CollectiveResult a = model.run(c);
  const CollectiveResult b = model.run(c);
  EXPECT_EQ(a.time_ps, b.time_ps);
  EXPECT_EQ(a.link_bytes, b.link_bytes);
  EXPECT_EQ(a.link_utilisation, b.link_utilisation);
}

TEST(Collective, ImpossibleRequestsAreErrors) {
  const SystemModel a100(load_system_config("a100x8"));
  EXPECT_THROW(a100.run(call(CollectiveOp::kAllReduce, 1024, Algorithm::kNvls)), Error);
  EXPECT_THROW(a100.run(call(CollectiveOp::kAllGather, 1024, Algorithm::kTree)), Error);
  CollectiveCall c = call(CollectiveOp::kAllReduce, 1024);
  c.ranks = {0, 9};
  EXPECT_THROW(a100.run(c), Error);
  c.ranks = {3};
  EXPECT_THROW(a100.run(c), Error);
  c.ranks = {3, 3};
  EXPECT_THROW(a100.run(c), Error);
  const SystemModel two_nodes(load_system_config("h200x16-2node"));
  EXPECT_THROW(two_nodes.run(call(CollectiveOp::kAllReduce, 1024, Algorithm::kNvls)), Error);
}

TEST(Collective, SubsetCommunicator) {
  // Ranks 4..7 of a DGX H100 (tensor parallelism over half the node).
  const SystemModel h100(load_system_config("h100x8"));
  CollectiveCall c = call(CollectiveOp::kAllReduce, 1 << 20, Algorithm::kRing);
  c.ranks = {4, 5, 6, 7};
  const CollectiveResult r = h100.run(c);
  ASSERT_EQ(r.gpus.size(), 4u);
  EXPECT_EQ(r.gpus[0].rank, 4u);
  const Topology& t = h100.topology();
  for (std::size_t id = 0; id < r.link_bytes.size(); ++id) {
    const int from = t.gpu_rank(t.link(static_cast<uint32_t>(id)).from);
    if (from >= 0 && from < 4) {
      EXPECT_EQ(r.link_bytes[id], 0u) << id;
    }
  }
}

TEST(Trees, NcclBinaryTreeShape) {
  // 4 ranks: 0 <- 2 <- {1, 3}.
  EXPECT_EQ(binary_tree(0, 4).parent, -1);
  EXPECT_EQ(binary_tree(0, 4).child1, 2);
  EXPECT_EQ(binary_tree(2, 4).parent, 0);
  EXPECT_EQ(binary_tree(2, 4).child0, 1);
  EXPECT_EQ(binary_tree(2, 4).child1, 3);
  EXPECT_EQ(binary_tree(3, 4).parent, 2);
  // The second tree is mirrored for even counts: 3 <- 1 <- {2, 0}.
  EXPECT_EQ(double_binary_tree(3, 4, 1).parent, -1);
  EXPECT_EQ(double_binary_tree(1, 4, 1).parent, 3);
  EXPECT_EQ(double_binary_tree(0, 4, 1).parent, 1);
  // Every rank but the root has a parent, in both trees, for any count.
  for (int n = 2; n <= 9; ++n) {
    for (int tree = 0; tree < 2; ++tree) {
      int roots = 0;
      for (int r = 0; r < n; ++r) roots += double_binary_tree(r, n, tree).parent < 0 ? 1 : 0;
      EXPECT_EQ(roots, 1) << n << " " << tree;
    }
  }
}

}  // namespace
}  // namespace sassim::system
