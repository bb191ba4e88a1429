// Kernel launches: stream order, concurrency across streams, copies as barriers.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "sim/gpu.h"
#include "sim/launch_graph.h"
#include "traces/text_trace.h"

#include "command_list.h"

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

using Commands = testing::CommandList;

std::vector<KernelResult> run(std::vector<std::pair<int, int>> kernels_and_streams,
                              bool copy_between,
                              const config::GpuConfig& config = config::load_config("v100")) {
  Commands w;
  int id = 1;
  for (auto [length, stream] : kernels_and_streams) {
    if (copy_between && id > 1) w.add(traces::MemcpyHtoD{0x1000, 128});
    w.add(traces::KernelLaunch{chain_kernel(id++, stream, length)});
  }
  Gpu gpu(config);
  return gpu.run(w);
}

// v100 with its clocks at `mhz` and the grid launch time given.
config::GpuConfig with_grid_launch(std::uint32_t cycles, double ns, double mhz = 1530) {
  config::GpuConfig c = config::load_config("v100");
  c.mutable_clocks()->set_core_mhz(mhz);
  c.mutable_clocks()->set_l2_mhz(mhz);
  c.mutable_sm()->set_grid_launch_cycles(cycles);
  c.mutable_sm()->set_grid_launch_ns(ns);
  return c;
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

TEST(GridLaunch, EveryKernelSpendsTheLaunchCyclesBeforeItsFirstCta) {
  const auto base = run({{20, 0}, {30, 0}}, false, with_grid_launch(0, 0));
  const auto late = run({{20, 0}, {30, 0}}, false, with_grid_launch(500, 0));
  ASSERT_EQ(base.size(), 2U);
  ASSERT_EQ(late.size(), 2U);
  EXPECT_EQ(late[0].cycles, base[0].cycles + 500);
  EXPECT_EQ(late[1].cycles, base[1].cycles + 500);
  // The next kernel of the stream starts when the previous one ends, launch time included.
  EXPECT_EQ(late[1].start_cycle, late[0].start_cycle + late[0].cycles);
  EXPECT_EQ(late[0].warp_insts, 20U);
}

TEST(GridLaunch, TheFixedTimeCostsCyclesInProportionToTheClock) {
  const auto base_1000 = run({{20, 0}}, false, with_grid_launch(0, 0, 1000));
  const auto base_2000 = run({{20, 0}}, false, with_grid_launch(0, 0, 2000));
  // 300 ns = 300 cycles at 1000 MHz and 600 at 2000 MHz; plus 40 cycles either way.
  const auto late_1000 = run({{20, 0}}, false, with_grid_launch(40, 300, 1000));
  const auto late_2000 = run({{20, 0}}, false, with_grid_launch(40, 300, 2000));
  EXPECT_EQ(late_1000[0].cycles, base_1000[0].cycles + 340);
  EXPECT_EQ(late_2000[0].cycles, base_2000[0].cycles + 640);
}

TEST(GridLaunch, KernelsOfDifferentStreamsLaunchTogether) {
  const auto base = run({{40, 1}, {20, 2}}, false, with_grid_launch(0, 0));
  const auto late = run({{40, 1}, {20, 2}}, false, with_grid_launch(250, 0));
  ASSERT_EQ(late.size(), 2U);
  EXPECT_EQ(late[1].start_cycle, late[0].start_cycle);
  EXPECT_EQ(late[0].cycles, base[0].cycles + 250);
  EXPECT_EQ(late[1].cycles, base[1].cycles + 250);
}

// One warp loading the 32 words from `address` once.
std::unique_ptr<traces::KernelTrace> load_kernel(std::uint64_t address) {
  std::string t =
      "-kernel name = load\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
      "-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
      "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
      "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 2\n"
      "0000 ffffffff 1 R2 LDG.E 1 R4 4 0";
  for (std::uint64_t lane = 0; lane < 32; ++lane) t += fmt::format(" 0x{:x}", address + 4 * lane);
  t += "\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n";
  return traces::kernel_from_text(t, "load");
}

// The L2 hit rate of a kernel loading one line right after a copy wrote it.
double hit_rate_after_copy(bool flush) {
  Commands w;
  constexpr std::uint64_t kLine = 0x7f5000000000;
  w.add(traces::MemcpyHtoD{kLine, 128});
  w.add(traces::KernelLaunch{load_kernel(kLine)});
  config::GpuConfig c = config::load_config("v100");
  c.mutable_simulation()->set_flush_l2_before_kernels(flush);
  Gpu gpu(c);
  const auto r = gpu.run(w);
  EXPECT_EQ(r.size(), 1U);
  EXPECT_GT(r.at(0).stats.sum("gpu.l2.slice[", ".sector_accesses"), 0);
  return r.at(0).l2_hit_rate;
}

TEST(FlushL2, ACopiedLineHitsUnlessTheL2IsFlushedBeforeTheKernel) {
  EXPECT_EQ(hit_rate_after_copy(false), 1.0);
  EXPECT_EQ(hit_rate_after_copy(true), 0.0);
}

}  // namespace
}  // namespace sassim::sim
