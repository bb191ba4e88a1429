// Placement of thread block clusters: whole clusters on one GPC at once, GPCs round
// robin, waiting for room on one GPC, clusters whose CTAs are apart in the trace, and
// the launch checks against the config.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cluster_rig.h"
#include "ground/error.h"
#include "sim/cluster_launch.h"
#include "sim/cluster_queue.h"

namespace sassim::sim {
namespace {

using testing::ClusterKernel;
using testing::ClusterRig;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::make_inst;
using testing::PlacementRecord;
using traces::Dim3;

// A chain of `length` dependent INT instructions (latency 6 in small_config()).
std::vector<std::uint32_t> chain(ClusterKernel& k, std::uint32_t length) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < length; ++i) {
    std::vector<std::uint16_t> src;
    if (i > 0) src.push_back(static_cast<std::uint16_t>(i));
    out.push_back(k.table().add(make_inst(0x100 * length + 0x10 * i, isa::UnitClass::kIntAlu, src,
                                          isa::RegRange{static_cast<std::uint16_t>(i + 1), 1})));
  }
  return out;
}

TEST(ClusterScheduler, PlacesEachClusterOnOneGpcRoundRobin) {
  ClusterRig rig({2, 2});
  ClusterKernel kernel({4, 1, 1}, {2, 1, 1});
  kernel.set_program([one = chain(kernel, 1)](const Dim3&) { return one; });
  rig.run(kernel);
  // Both clusters in the first scheduler cycle (1): cluster 0 on GPC 0 (SMs 0, 1),
  // cluster 1 on GPC 1 (SMs 2, 3), one CTA per SM.
  EXPECT_THAT(
      rig.placements.records,
      ElementsAre(PlacementRecord{0, {0, 0, 0}, 0, 0, 1}, PlacementRecord{1, {1, 0, 0}, 0, 1, 1},
                  PlacementRecord{2, {2, 0, 0}, 1, 0, 1}, PlacementRecord{3, {3, 0, 0}, 1, 1, 1}));
  for (const auto& r : rig.recorders) EXPECT_EQ(r.records.front().cycle, 2U);
}

TEST(ClusterScheduler, AClusterWaitsForRoomForAllItsCtasOnOneGpc) {
  ClusterRig rig({2, 2});
  rig.config().mutable_sm()->set_max_ctas(1);
  // Chain lengths by CTA x: SM 0 frees early, SM 1 late; SMs 2 and 3 in between.
  const std::uint32_t lengths[] = {1, 3, 2, 2, 1, 1};
  ClusterKernel kernel({6, 1, 1}, {2, 1, 1});
  const std::vector<std::vector<std::uint32_t>> chains = {chain(kernel, 1), chain(kernel, 2),
                                                          chain(kernel, 3)};
  kernel.set_program([&](const Dim3& id) { return chains[lengths[id.x] - 1]; });
  rig.run(kernel);
  ASSERT_EQ(rig.placements.records.size(), 6U);
  // Placed at 1, first issues at 2; INT latency 6. An SM frees its CTA in the cycle the
  // CTA issues its last instruction, and the scheduler places in that cycle: SM 0 is
  // free from 2 but its GPC is not; GPC 1 is free from 2 + 6 = 8.
  const std::uint64_t int_latency = rig.config().sm().units().int_alu().latency_cycles();
  const std::uint64_t gpc1_free = 2 + int_latency;
  EXPECT_EQ(rig.placements.records[4], (PlacementRecord{2, {4, 0, 0}, 2, 0, gpc1_free}));
  EXPECT_EQ(rig.placements.records[5], (PlacementRecord{3, {5, 0, 0}, 2, 1, gpc1_free}));
  EXPECT_EQ(rig.recorders[2].records.back().cycle, gpc1_free + 1);
  EXPECT_EQ(rig.sms[0]->counters().ctas, 1U);
}

TEST(ClusterScheduler, BuffersTheCtasOfAClusterApartInTheTrace) {
  ClusterRig rig({2, 2});
  ClusterKernel kernel({2, 2, 1}, {1, 2, 1});
  kernel.set_program([one = chain(kernel, 1)](const Dim3&) { return one; });
  rig.run(kernel);
  // Trace order (0,0) (1,0) (0,1) (1,1): cluster 0 = x 0, complete third; cluster 1 = x 1.
  EXPECT_THAT(
      rig.placements.records,
      ElementsAre(PlacementRecord{0, {0, 0, 0}, 0, 0, 1}, PlacementRecord{1, {0, 1, 0}, 0, 1, 1},
                  PlacementRecord{2, {1, 0, 0}, 1, 0, 1}, PlacementRecord{3, {1, 1, 0}, 1, 1, 1}));
  EXPECT_EQ(kernel.read(), 4U);
}

TEST(ClusterScheduler, CtasOfAClusterShareAnSmWhenTheGpcIsSmall) {
  ClusterRig rig({2, 1});
  ClusterKernel kernel({4, 1, 1}, {4, 1, 1});
  kernel.set_program([one = chain(kernel, 1)](const Dim3&) { return one; });
  rig.run(kernel);
  std::vector<std::uint32_t> sms;
  for (const auto& r : rig.placements.records) sms.push_back(r.sm);
  EXPECT_THAT(sms, ElementsAre(0, 1, 0, 1));  // GPC 0, spread then doubled up
}

TEST(ClusterScheduler, ATraceEndingInsideAClusterIsAnError) {
  ClusterRig rig({2});
  ClusterKernel kernel({2, 2, 1}, {1, 2, 1}, 3);
  kernel.set_program([one = chain(kernel, 1)](const Dim3&) { return one; });
  try {
    rig.run(kernel);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("cluster.traceg: the trace ended with 1 of the 2 CTAs of "
                                    "cluster 1 (cluster dim (1,2,1)): expected every CTA"));
  }
}

std::string launch_error(const config::GpuConfig& config, Dim3 cluster, CtaResources cta) {
  traces::KernelInfo info;
  info.source = "k.traceg";
  info.grid = {16, 1, 1};
  info.cluster = cluster;
  info.cluster_line = 14;
  try {
    check_cluster_launch(info, cta, config, GpcLayout::from_config(config));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ClusterLaunch, ChecksArchSizeAndRoomOnOneGpc) {
  config::GpuConfig config = testing::small_config();
  config.set_num_sms(4);
  config.mutable_cluster()->add_gpc_sms(2);
  config.mutable_cluster()->add_gpc_sms(2);
  const CtaResources cta{32, 1, 1024, 0};
  EXPECT_THAT(launch_error(config, {2, 1, 1}, cta),
              HasSubstr("k.traceg:14: -cluster dim = (2,1,1) on test GPU (sm_70): expected a GPU "
                        "of sm_90 or later for clusters"));
  config.set_arch("sm_90");
  EXPECT_EQ(launch_error(config, {2, 1, 1}, cta), "");
  EXPECT_EQ(launch_error(config, {1, 1, 1}, cta), "");
  config.mutable_cluster()->set_max_cluster_ctas(8);
  EXPECT_THAT(launch_error(config, {16, 1, 1}, cta),
              HasSubstr("k.traceg:14: -cluster dim = (16,1,1) has 16 CTAs: expected at most "
                        "cluster.max_cluster_ctas = 8 of test GPU"));
  config.mutable_sm()->set_max_ctas(2);  // 2 SMs x 2 CTAs on a GPC
  EXPECT_EQ(launch_error(config, {4, 1, 1}, cta), "");
  EXPECT_THAT(launch_error(config, {8, 1, 1}, cta),
              HasSubstr("has 8 CTAs but at most 4 of this kernel's CTAs fit on one GPC of test GPU "
                        "(2 per SM, 2 SMs in the largest GPC)"));
}

}  // namespace
}  // namespace sassim::sim
