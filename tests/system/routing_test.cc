// Topologies built from configs and the routes between their GPUs.
#include <gtest/gtest.h>

#include "ground/error.h"

#include "system/router.h"
#include "system/system_config_loader.h"
#include "system/topology.h"
#include "tests/system/system_fixtures.h"

namespace sassim::system {
namespace {

std::vector<LinkKind> kinds(const Topology& t, const std::vector<uint32_t>& route) {
  std::vector<LinkKind> out;
  for (uint32_t id : route) out.push_back(t.link(id).kind);
  return out;
}

TEST(Topology, DgxH100NodeIsEightGpusOnOneSwitch) {
  const Topology t = build_topology(load_system_config("h100x8"));
  EXPECT_EQ(t.gpu_count(), 8u);
  ASSERT_GE(t.nvswitch_of(0), 0);
  Router router(t);
  const std::vector<uint32_t>& route = router.route(t.gpu_vertex(0), t.gpu_vertex(5));
  ASSERT_EQ(route.size(), 2u);
  EXPECT_EQ(t.link(route[0]).to, static_cast<uint32_t>(t.nvswitch_of(0)));
  // 18 links x 25 GB/s x 0.824 of payload.
  EXPECT_EQ(t.link(route[0]).bytes_per_s, 370'800'000'000u);
  EXPECT_EQ(t.link(route[1]).latency_ps, 200'000);  // link and switch
}

TEST(Topology, DirectLinksAreSpreadOverPeers) {
  const Topology t = build_topology(testing::small_system(4, 6, false, 50, 0));
  Router router(t);
  const std::vector<uint32_t>& route = router.route(t.gpu_vertex(1), t.gpu_vertex(3));
  ASSERT_EQ(route.size(), 1u);
  EXPECT_EQ(t.link(route[0]).bytes_per_s, 2 * 1'000'000'000u);  // 6 links / 3 peers
  EXPECT_EQ(router.latency_ps(t.gpu_vertex(1), t.gpu_vertex(3)), 50'000);
}

TEST(Topology, TwoNodesGoThroughTheGpusOwnNics) {
  const Topology t = build_topology(load_system_config("h200x16-2node"));
  EXPECT_EQ(t.gpu_count(), 16u);
  EXPECT_EQ(t.node_count(), 2u);
  Router router(t);
  const std::vector<uint32_t>& route = router.route(t.gpu_vertex(2), t.gpu_vertex(8 + 5));
  EXPECT_EQ(kinds(t, route), (std::vector<LinkKind>{LinkKind::kPcie, LinkKind::kNetwork,
                                                    LinkKind::kNetwork, LinkKind::kPcie}));
  EXPECT_EQ(t.vertex(t.link(route[0]).to).name, "node0.nic2");
  EXPECT_EQ(t.vertex(t.link(route[2]).to).name, "node1.nic5");
  // Inside a node, NVLink stays shorter than a detour through the network.
  EXPECT_EQ(kinds(t, router.route(t.gpu_vertex(9), t.gpu_vertex(15))),
            (std::vector<LinkKind>{LinkKind::kNvlink, LinkKind::kNvlink}));
}

TEST(Router, NeverForwardsThroughAnotherGpu) {
  // gpu0 - gpu1 - gpu2 in a line, and a slow detour gpu0 - switch - gpu2.
  Topology t;
  for (int i = 0; i < 3; ++i) t.add_vertex(VertexKind::kGpu, 0, "gpu");
  const uint32_t sw = t.add_vertex(VertexKind::kNvswitch, 0, "switch");
  t.add_duplex(0, 1, LinkKind::kNvlink, 1000, 1);
  t.add_duplex(1, 2, LinkKind::kNvlink, 1000, 1);
  t.add_duplex(0, sw, LinkKind::kNvlink, 1000, 500);
  t.add_duplex(sw, 2, LinkKind::kNvlink, 1000, 500);
  Router router(t);
  EXPECT_EQ(router.latency_ps(0, 2), 1000);
  EXPECT_EQ(router.route(0, 1).size(), 1u);
}

TEST(Router, EqualLatencyPrefersFewerHopsThenTheFirstVertex) {
  Topology t;
  const uint32_t a = t.add_vertex(VertexKind::kGpu, 0, "a");
  const uint32_t b = t.add_vertex(VertexKind::kGpu, 0, "b");
  const uint32_t x = t.add_vertex(VertexKind::kNvswitch, 0, "x");
  const uint32_t y = t.add_vertex(VertexKind::kNvswitch, 1, "y");
  const uint32_t z = t.add_vertex(VertexKind::kNvswitch, 2, "z");
  // a-y-b and a-x-b both 200 ps, a-z-x-b too but in three hops; y's links come first.
  t.add_link(a, y, LinkKind::kNvlink, 1000, 100);
  t.add_link(y, b, LinkKind::kNvlink, 1000, 100);
  t.add_link(a, x, LinkKind::kNvlink, 1000, 100);
  t.add_link(x, b, LinkKind::kNvlink, 1000, 100);
  t.add_link(a, z, LinkKind::kNvlink, 1000, 0);
  t.add_link(z, x, LinkKind::kNvlink, 1000, 100);
  Router router(t);
  const std::vector<uint32_t>& route = router.route(a, b);
  ASSERT_EQ(route.size(), 2u);
  EXPECT_EQ(t.link(route[0]).from, a);
  EXPECT_EQ(t.link(route[0]).to, x);       // x comes before y in vertex order
  EXPECT_EQ(&router.route(a, b), &route);  // cached
}

TEST(Router, UnreachableIsAnError) {
  Topology t;
  t.add_vertex(VertexKind::kGpu, 0, "gpu0");
  t.add_vertex(VertexKind::kGpu, 0, "gpu1");
  Router router(t);
  try {
    router.route(0, 1);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "no route from gpu0 to gpu1");
  }
}

}  // namespace
}  // namespace sassim::system
