// Kernel launches: stream order, concurrency across streams, copies as barriers.
#include <gtest/gtest.h>

#include <deque>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "sim/gpu.h"
#include "sim/launch_graph.h"
#include "traces/text_trace.h"

namespace sassim::sim {
namespace {

TEST(LaunchGraph, ALaunchDependsOnThePreviousOneOfItsStream) {
  LaunchGraph g;
  const auto a = g.add_launch(0);
  const auto b = g.add_launch(7);
  const auto c = g.add_launch(0);
  EXPECT_TRUE(g.ready(a));
  EXPECT_TRUE(g.ready(b));
  EXPECT_FALSE(g.ready(c));
  EXPECT_EQ(g.dependencies(c), std::vector<std::size_t>{a});
  g.mark_done(a);
  EXPECT_TRUE(g.ready(c));
}

// One CTA of one warp running a chain of `length` dependent FFMAs.
std::unique_ptr<traces::KernelTrace> chain_kernel(int id, int stream, int length) {
  std::string t = fmt::format(
      "-kernel name = chain{}\n-kernel id = {}\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
      "-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = {}\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
      "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
      "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = {}\n",
      id, id, stream, length);
  for (int i = 0; i < length; ++i) t += fmt::format("{:04x} ffffffff 1 R2 FFMA 1 R2 0\n", i * 16);
  t += "#END_TB\n";
  return traces::kernel_from_text(t, fmt::format("chain{}", id));
}

class Commands final : public traces::Workload {
 public:
  void add(traces::Command c) { commands_.push_back(std::move(c)); }
  std::optional<traces::Command> next() override {
    if (commands_.empty()) return std::nullopt;
    auto c = std::move(commands_.front());
    commands_.pop_front();
    return c;
  }
  std::optional<traces::KernelInfo> first_kernel_info() override { return std::nullopt; }
  std::string description() const override { return "test commands"; }

 private:
  std::deque<traces::Command> commands_;
};

std::vector<KernelResult> run(std::vector<std::pair<int, int>> kernels_and_streams,
                              bool copy_between) {
  Commands w;
  int id = 1;
  for (auto [length, stream] : kernels_and_streams) {
    if (copy_between && id > 1) w.add(traces::MemcpyHtoD{0x1000, 128});
    w.add(traces::KernelLaunch{chain_kernel(id++, stream, length)});
  }
  Gpu gpu(config::load_config("v100"));
  return gpu.run(w);
}

TEST(Launches, OneStreamRunsKernelsOneAfterAnother) {
  const auto r = run({{20, 0}, {20, 0}}, false);
  ASSERT_EQ(r.size(), 2U);
  EXPECT_GE(r[1].start_cycle, r[0].start_cycle + r[0].cycles);
}

TEST(Launches, DifferentStreamsRunConcurrently) {
  const auto r = run({{40, 1}, {20, 2}}, false);
  ASSERT_EQ(r.size(), 2U);
  EXPECT_EQ(r[1].start_cycle, r[0].start_cycle);
  EXPECT_LT(r[1].start_cycle + r[1].cycles,
            r[0].start_cycle + r[0].cycles);  // the short one ends first
  EXPECT_EQ(r[0].warp_insts, 40U);            // each kernel counts only its own instructions
  EXPECT_EQ(r[1].warp_insts, 20U);
  EXPECT_EQ(r[0].info.id, 1U);  // results stay in launch order
}

TEST(Launches, ACopyWaitsForEverythingBeforeIt) {
  const auto r = run({{40, 1}, {20, 2}}, true);
  ASSERT_EQ(r.size(), 2U);
  EXPECT_GE(r[1].start_cycle, r[0].start_cycle + r[0].cycles);
}

}  // namespace
}  // namespace sassim::sim
