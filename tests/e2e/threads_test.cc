// Results do not depend on the host threads: every bundled reference trace, a
// two-stream workload and kernels of thread block clusters (cluster barriers,
// distributed shared memory) replayed on 1, 2, 3 and 8 threads give the same cycles,
// warp instructions and every counter of every kernel, bit for bit.
#include <gtest/gtest.h>

#include <ostream>

#include "e2e_fixtures.h"

namespace sassim::e2e {

void PrintTo(const ReferenceTrace& t, std::ostream* os) {
  *os << t.name;
}

namespace {

std::vector<sim::KernelResult> replay_on(const std::string& path, const std::string& preset,
                                         unsigned threads) {
  auto workload = traces::open_accelsim_workload(repo_path(path));
  sim::Gpu gpu(config::load_config(preset));
  gpu.set_threads(threads);
  EXPECT_EQ(gpu.threads(), threads);
  return gpu.run(*workload);
}

void expect_same_for_any_thread_count(const std::string& path, const std::string& preset) {
  const std::vector<sim::KernelResult> one = replay_on(path, preset, 1);
  ASSERT_FALSE(one.empty());
  for (unsigned threads : {2u, 3u, 8u}) {
    const std::vector<sim::KernelResult> many = replay_on(path, preset, threads);
    ASSERT_EQ(many.size(), one.size()) << threads << " threads";
    for (std::size_t k = 0; k < one.size(); ++k) {
      SCOPED_TRACE(testing::Message() << path << " kernel " << k << ", " << threads << " threads");
      EXPECT_EQ(many[k].start_cycle, one[k].start_cycle);
      EXPECT_EQ(many[k].cycles, one[k].cycles);
      EXPECT_EQ(many[k].warp_insts, one[k].warp_insts);
      EXPECT_TRUE(many[k].stats == one[k].stats) << "a counter differs";
    }
  }
}

class ThreadsTest : public ::testing::TestWithParam<ReferenceTrace> {};

TEST_P(ThreadsTest, EveryCounterIsTheSameOnAnyThreadCount) {
  expect_same_for_any_thread_count(GetParam().path, GetParam().preset);
}

INSTANTIATE_TEST_SUITE_P(ReferenceTraces, ThreadsTest, ::testing::ValuesIn(reference_traces()),
                         [](const auto& param_info) { return param_info.param.name; });

TEST(Threads, ConcurrentStreamsAreTheSameOnAnyThreadCount) {
  expect_same_for_any_thread_count("tests/data/traces/small_workload", "a100");
}

// 136 CTAs of four warps in clusters of 4 (a load, the cluster barrier, exit); each SM
// is a tile of its own, the cluster barriers reached over the SM-to-SM network.
TEST(Threads, ClustersAreTheSameOnAnyThreadCount) {
  expect_same_for_any_thread_count("tests/data/traces/cluster_barrier", "h100");
}

// 264 CTAs of two warps in clusters of 2: between cluster barriers each warp loads from
// and stores to its peer CTA's shared memory (distributed shared memory).
TEST(Threads, DistributedSharedMemoryIsTheSameOnAnyThreadCount) {
  expect_same_for_any_thread_count("tests/data/traces/cluster_dsmem", "h100");
}

}  // namespace
}  // namespace sassim::e2e
