// run_system end to end: two traces of the small_workload kernels (three ranks, two of
// them replaying one folder) with two collectives. Each collective starts at its last
// rank's arrival and ends its simulated time later; a rank's kernel after a collective
// starts after its end; and the whole result is the same for any host thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "configs/config_loader.h"
#include "multigpu/system_run.h"
#include "system/system_config_loader.h"
#include "tests/multigpu/rank_folders.h"
#include "tests/support/scratch_dir.h"

namespace sassim::multigpu {
namespace {

constexpr const char* kAllReduce = "Collective,all_reduce,bytes=16384,type=bf16,ranks=all";
constexpr const char* kAllGather = "Collective,all_gather,bytes=65536,type=bf16,ranks=all";

class SystemRunTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test_support::ScratchDir("system_run");
    const std::filesystem::path root = dir_->path();
    // Rank 0 reaches the all_reduce after its first kernel; ranks 1 and 2 after both.
    testing::write_rank(root, "rank-0",
                        {"MemcpyHtoD,0x00007f2b2d500000,400", "kernel-1.traceg", kAllReduce,
                         "MemcpyHtoD,0x00007f2b2d500200,8", "kernel-2.traceg", kAllGather});
    testing::write_rank(root, "rank-1",
                        {"MemcpyHtoD,0x00007f2b2d500000,400", "kernel-1.traceg", "kernel-2.traceg",
                         kAllReduce, kAllGather});
    testing::write_ranks(root, {"rank-0", "rank-1", "rank-1"});
    plan_ = new SystemPlan(
        plan_system_run(root, system::SystemModel(system::load_system_config("h200x8"))));
    gpu_ = new config::GpuConfig(config::load_config("h200"));
  }
  static void TearDownTestSuite() {
    delete gpu_;
    delete plan_;
    delete dir_;
  }
  static SystemResult run(unsigned threads) {
    SystemRunOptions options;
    options.threads = threads;
    return run_system(*plan_, *gpu_, options);
  }
  static Picos start_ps(const SystemResult& r, const sim::KernelResult& k) {
    return k.start_cycle * r.core_period_ps;
  }
  static Picos end_ps(const SystemResult& r, const sim::KernelResult& k) {
    return (k.start_cycle + k.cycles) * r.core_period_ps;
  }

  static test_support::ScratchDir* dir_;
  static SystemPlan* plan_;
  static config::GpuConfig* gpu_;
};
test_support::ScratchDir* SystemRunTest::dir_ = nullptr;
SystemPlan* SystemRunTest::plan_ = nullptr;
config::GpuConfig* SystemRunTest::gpu_ = nullptr;

TEST_F(SystemRunTest, CollectivesStartAtTheLastArrivalAndHoldBackWhatFollows) {
  const SystemResult r = run(1);
  EXPECT_FALSE(r.stopped);
  EXPECT_EQ(r.core_period_ps, Clock::from_mhz(gpu_->clocks().core_mhz()).period_ps);
  ASSERT_EQ(r.players.size(), 2u);
  EXPECT_EQ(r.players[1].ranks, (std::vector<std::uint32_t>{1, 2}));
  const std::vector<sim::KernelResult>& k0 = r.players[0].kernels;
  const std::vector<sim::KernelResult>& k1 = r.players[1].kernels;
  ASSERT_EQ(k0.size(), 2u);
  ASSERT_EQ(k1.size(), 2u);
  ASSERT_EQ(r.collectives.size(), 2u);
  const CollectiveInstance& reduce = r.collectives[0];
  const CollectiveInstance& gather = r.collectives[1];
  for (const CollectiveInstance& c : r.collectives) {
    ASSERT_TRUE(c.resolved) << c.describe();
    ASSERT_EQ(c.arrivals.size(), 3u);
    Picos last = 0;
    for (const auto& a : c.arrivals) {
      ASSERT_TRUE(a.has_value()) << c.describe();
      last = std::max(last, *a);
    }
    EXPECT_EQ(c.start, last) << c.describe();
    EXPECT_EQ(c.end, c.start + static_cast<Picos>(c.result.time_ps)) << c.describe();
    EXPECT_GT(c.result.time_ps, 0);
    // Ranks 1 and 2 are one player: they arrive together.
    EXPECT_EQ(c.arrivals[1], c.arrivals[2]) << c.describe();
  }
  EXPECT_EQ(r.lookahead,
            static_cast<Picos>(std::min(reduce.result.time_ps, gather.result.time_ps)));
  EXPECT_GT(r.syncs, 0u);
  // The all_reduce: rank 0 after its first kernel, ranks 1 and 2 after both, last.
  EXPECT_GE(*reduce.arrivals[0], end_ps(r, k0[0]));
  EXPECT_GE(*reduce.arrivals[1], end_ps(r, k1[1]));
  EXPECT_GE(start_ps(r, k1[1]), end_ps(r, k1[0]));
  EXPECT_LT(*reduce.arrivals[0], *reduce.arrivals[1]);
  EXPECT_EQ(reduce.start, *reduce.arrivals[1]);
  // Rank 0's second kernel waits for the all_reduce's end (at the next core edge); its
  // all_gather for that kernel.
  EXPECT_GE(start_ps(r, k0[1]), reduce.end);
  EXPECT_LT(start_ps(r, k0[1]), reduce.end + r.core_period_ps);
  EXPECT_GE(*gather.arrivals[0], end_ps(r, k0[1]));
  // Ranks 1 and 2 reach the all_gather once the all_reduce ends: rank 0 is last.
  EXPECT_GE(*gather.arrivals[1], reduce.end);
  EXPECT_EQ(gather.start, *gather.arrivals[0]);
  // Each player ends with its last collective; the run with the last player.
  EXPECT_GE(r.players[0].end, gather.end);
  EXPECT_GE(r.players[1].end, gather.end);
  EXPECT_EQ(r.end, std::max(r.players[0].end, r.players[1].end));
}

TEST_F(SystemRunTest, SameResultForAnyThreadCount) {
  const SystemResult one = run(1);
  for (unsigned threads : {2u, 3u, 4u}) {
    const SystemResult r = run(threads);
    ASSERT_EQ(r.players.size(), one.players.size());
    for (std::size_t p = 0; p < r.players.size(); ++p) {
      const std::vector<sim::KernelResult>& a = one.players[p].kernels;
      const std::vector<sim::KernelResult>& b = r.players[p].kernels;
      ASSERT_EQ(b.size(), a.size()) << threads << " threads, player " << p;
      for (std::size_t k = 0; k < a.size(); ++k) {
        EXPECT_EQ(b[k].start_cycle, a[k].start_cycle) << threads << " threads, player " << p;
        EXPECT_EQ(b[k].cycles, a[k].cycles) << threads << " threads, player " << p;
        EXPECT_EQ(b[k].warp_insts, a[k].warp_insts) << threads << " threads, player " << p;
      }
      EXPECT_EQ(r.players[p].end, one.players[p].end) << threads << " threads, player " << p;
    }
    ASSERT_EQ(r.collectives.size(), one.collectives.size());
    for (std::size_t c = 0; c < r.collectives.size(); ++c) {
      EXPECT_EQ(r.collectives[c].arrivals, one.collectives[c].arrivals) << threads << " threads";
      EXPECT_EQ(r.collectives[c].start, one.collectives[c].start) << threads << " threads";
      EXPECT_EQ(r.collectives[c].end, one.collectives[c].end) << threads << " threads";
    }
    EXPECT_EQ(r.end, one.end) << threads << " threads";
    EXPECT_EQ(r.syncs, one.syncs) << threads << " threads";
  }
}

}  // namespace
}  // namespace sassim::multigpu
