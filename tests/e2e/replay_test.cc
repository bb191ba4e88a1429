// End-to-end replays of every bundled real trace on its preset.
#include <gtest/gtest.h>

#include <cstdint>

#include "e2e_fixtures.h"
#include "traces/trace_summary.h"

namespace sassim::e2e {
namespace {

class ReplayTest : public ::testing::TestWithParam<ReferenceTrace> {};

TEST_P(ReplayTest, SimulatesEveryWarpInstructionOfTheTrace) {
  const ReferenceTrace& t = GetParam();
  auto workload = traces::open_accelsim_workload(repo_path(t.path));
  const auto summaries = traces::summarize(*workload);
  const auto results = replay(t);
  ASSERT_EQ(results.size(), summaries.size());
  for (std::size_t k = 0; k < results.size(); ++k) {
    EXPECT_EQ(results[k].warp_insts, summaries[k].warp_insts) << "kernel " << k;
    EXPECT_EQ(results[k].info.name, summaries[k].info.name);
    EXPECT_GT(results[k].cycles, 0U);
    // A warp instruction per sub-core scheduler per cycle is the ceiling.
    EXPECT_LE(results[k].ipc, 4.0 * 132);
    EXPECT_EQ(results[k].stats.sum("gpu.sm[", ".ctas"), static_cast<double>(summaries[k].ctas));
  }
}

INSTANTIATE_TEST_SUITE_P(ReferenceTraces, ReplayTest, ::testing::ValuesIn(reference_traces()),
                         [](const auto& param_info) { return param_info.param.name; });

TEST(Replay, IdenticalRunsGiveBitIdenticalStats) {
  const ReferenceTrace& bfs = reference_traces()[3];
  const auto a = replay(bfs);
  const auto b = replay(bfs);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].cycles, b[k].cycles);
    EXPECT_EQ(a[k].stats, b[k].stats) << "kernel " << k;
  }
}

TEST(Replay, KernelsRunBackToBackInLaunchOrder) {
  const auto results = replay(reference_traces()[3]);
  ASSERT_EQ(results.size(), 16U);
  for (std::size_t k = 1; k < results.size(); ++k) {
    EXPECT_GE(results[k].start_cycle, results[k - 1].start_cycle + results[k - 1].cycles);
    EXPECT_EQ(results[k].info.id, results[k - 1].info.id + 1);
  }
}

TEST(Replay, AConfigChangeMovesTheCycles) {
  const ReferenceTrace& bfs = reference_traces()[3];
  const auto base = replay(bfs);
  const auto slow = replay(bfs, {"l2.hit_latency_cycles=400"});
  std::uint64_t base_cycles = 0, slow_cycles = 0;
  for (const auto& r : base) base_cycles += r.cycles;
  for (const auto& r : slow) slow_cycles += r.cycles;
  EXPECT_GT(slow_cycles, base_cycles);
}

}  // namespace
}  // namespace sassim::e2e
