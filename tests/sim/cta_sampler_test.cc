// Sampling within a kernel (sim/cta_sampler.h): when the CTA completion rate counts as
// stable, how many CTAs are skipped, the cycles and counters they stand for, the gate
// on the L2 turning over, and a sampled kernel through the whole GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "sim/cta_sampler.h"
#include "sim/gpu.h"
#include "streaming_kernel.h"
#include "traces/text_trace.h"

namespace sassim::sim {
namespace {

// Counter 0: cycles; counter 1: DRAM bytes, 100 per cycle.
StatsSnapshot counters(std::uint64_t cycle) {
  StatsSnapshot s;
  s.values = {static_cast<double>(cycle), 100.0 * static_cast<double>(cycle)};
  return s;
}

double dram(const StatsSnapshot& s) {
  return s.values[1];
}

// Drives a sampler as the GPU does: a kernel of `grid` CTAs, `wave` at a time; window w
// (w = 1, 2, ...) takes span(w) cycles. The scheduler keeps `wave` CTAs resident and one
// read ahead. Returns the CTAs placed (not skipped).
std::uint64_t drive(CtaSampler& s, std::uint64_t grid, std::uint64_t wave,
                    const std::function<std::uint64_t(std::uint64_t)>& span) {
  std::uint64_t read = 0, placed = 0, retired = 0, cycle = 0;
  auto fill = [&] {
    while (read < grid && placed < retired + wave + 1) {
      ++read;
      if (s.skip_next()) {
        s.skipped(10);
      } else {
        ++placed;
      }
    }
  };
  s.observe(0, 0, [&] { return counters(0); });
  fill();
  for (std::uint64_t w = 1; placed > retired; ++w) {
    cycle += span(w);
    retired = std::min(placed, retired + wave);
    s.observe(retired, cycle, [&] { return counters(cycle); });
    fill();
  }
  return placed;
}

TEST(CtaSampler, SkipsAllButTheLastWaveOnceNineWindowsRunAlike) {
  CtaSampler s(1000, 10, 0, dram);  // no L2 to turn over
  const std::uint64_t placed = drive(s, 1000, 10, [](std::uint64_t) { return 40; });
  // The first window (the ramp), then 3 blocks of 3 windows: 100 CTAs retired and 101
  // read; all but the last wave of the 899 unread are skipped.
  EXPECT_EQ(s.skipped_ctas(), 1000U - 101U - 10U);
  EXPECT_EQ(placed, 1000U - s.skipped_ctas());
  EXPECT_EQ(s.skipped_warp_insts(), 10U * s.skipped_ctas());
  EXPECT_DOUBLE_EQ(s.skipped_cycles(), static_cast<double>(s.skipped_ctas()) * 4.0);
  EXPECT_DOUBLE_EQ(s.skipped_cycles_ci95(), 0.0);  // the blocks' rates are equal
  StatsSnapshot change = counters(0);
  s.extrapolate(change);
  // Over the blocks each CTA took 4 cycles and 400 DRAM bytes.
  EXPECT_DOUBLE_EQ(change.values[0], 4.0 * static_cast<double>(s.skipped_ctas()));
  EXPECT_DOUBLE_EQ(change.values[1], 400.0 * static_cast<double>(s.skipped_ctas()));
}

TEST(CtaSampler, TheIntervalFollowsTheBlocksSpread) {
  CtaSampler s(1000, 10, 0, dram);
  // Windows 2-4, 5-7 and 8-10 take 120, 121 and 119 cycles (within 2% of each other).
  drive(s, 1000, 10, [](std::uint64_t w) -> std::uint64_t {
    if (w == 5) return 41;
    if (w == 8) return 39;
    return 40;
  });
  ASSERT_EQ(s.skipped_ctas(), 1000U - 101U - 10U);
  const double r[] = {30.0 / 120, 30.0 / 121, 30.0 / 119};
  const double mean = (r[0] + r[1] + r[2]) / 3;
  double ss = 0;
  for (double x : r) ss += (x - mean) * (x - mean);
  const double rate = 90.0 / 360.0, half = 4.303 * std::sqrt(ss / 2) / std::sqrt(3.0);
  EXPECT_DOUBLE_EQ(s.skipped_cycles(), static_cast<double>(s.skipped_ctas()) / rate);
  EXPECT_NEAR(s.skipped_cycles_ci95(), s.skipped_cycles() * half / rate, 1e-9);
}

TEST(CtaSampler, AnUnsteadyRateIsSimulatedInFull) {
  CtaSampler s(1000, 10, 0, dram);
  drive(s, 1000, 10, [](std::uint64_t w) -> std::uint64_t { return 40 + 5 * (w / 3 % 2); });
  EXPECT_EQ(s.skipped_ctas(), 0U);
  EXPECT_DOUBLE_EQ(s.skipped_cycles(), 0.0);
}

TEST(CtaSampler, WindowsCountOnlyOnceTheL2HasTurnedOver) {
  // 4,000 bytes a window: the L2 of 30,000 bytes has turned over after 8 windows, then
  // 9 more are needed.
  CtaSampler s(1000, 10, 30000, dram);
  drive(s, 1000, 10, [](std::uint64_t) { return 40; });
  EXPECT_EQ(s.skipped_ctas(), 1000U - 171U - 10U);
  // An L2 the kernel would turn over only after its last window: nothing is sampled.
  CtaSampler late(1000, 10, 300000, dram);
  drive(late, 1000, 10, [](std::uint64_t) { return 40; });
  EXPECT_EQ(late.skipped_ctas(), 0U);
}

TEST(CtaSampler, AKernelThatNeverTurnsTheL2OverCountsWindowsFromItsSecond) {
  // After window 2 the kernel has moved 8,000 bytes and its 980 remaining CTAs, at twice
  // the 400 bytes a CTA of window 2, would move 784,000 more: 792,000 in all. Below the
  // L2's size the windows count from there (9 more: 110 CTAs retired, 111 read).
  CtaSampler never(1000, 10, 792001, dram);
  drive(never, 1000, 10, [](std::uint64_t) { return 40; });
  EXPECT_EQ(never.skipped_ctas(), 1000U - 111U - 10U);
  // With an L2 of exactly 792,000 bytes it might turn it over; after window 3 the
  // figure is 12,000 + 2 x 400 x 970 = 788,000: the windows count from the third.
  CtaSampler might(1000, 10, 792000, dram);
  drive(might, 1000, 10, [](std::uint64_t) { return 40; });
  EXPECT_EQ(might.skipped_ctas(), 1000U - 121U - 10U);
  // The projection counts what the L2 allocates (stores allocate without DRAM traffic):
  // at three times the DRAM bytes the kernel would turn the L2 over, and it ends before
  // its DRAM bytes show that.
  CtaSampler stores(1000, 10, 792001, dram, {}, [](const StatsSnapshot& s) { return 3 * dram(s); });
  drive(stores, 1000, 10, [](std::uint64_t) { return 40; });
  EXPECT_EQ(stores.skipped_ctas(), 0U);
}

TEST(CtaSampler, BlocksSpanTheWindowsTheL2TookToTurnOver) {
  // 4,000 bytes a window: the L2 of 60,000 bytes turns over in 15 windows, so blocks of
  // 5 windows, 15 more before the decision (300 CTAs retired, 301 read).
  CtaSampler s(1000, 10, 60000, dram);
  drive(s, 1000, 10, [](std::uint64_t) { return 40; });
  EXPECT_EQ(s.skipped_ctas(), 1000U - 301U - 10U);
  // A window 2.5 times as long every 15th (the pace of the L2's write-backs): the blocks
  // of windows 16-30 hold one, and the rate is that of a whole period.
  CtaSampler periodic(1000, 10, 60000, dram, CtaSamplingOptions{3, 3, 0.5});
  drive(periodic, 1000, 10, [](std::uint64_t w) { return w % 15 == 0 ? 100 : 40; });
  ASSERT_EQ(periodic.skipped_ctas(), 1000U - 301U - 10U);
  EXPECT_DOUBLE_EQ(periodic.skipped_cycles(),
                   static_cast<double>(periodic.skipped_ctas()) * (14 * 40 + 100) / 150.0);
}

TEST(CtaSampler, SmallGridsAreNotSkipped) {
  CtaSampler s(120, 10, 0, dram);  // at the decision 10 CTAs are unread: the tail itself
  drive(s, 120, 10, [](std::uint64_t) { return 40; });
  EXPECT_EQ(s.skipped_ctas(), 0U);
}

TEST(CtaSampler, StoppedSkipsNothing) {
  CtaSampler s(1000, 10, 0, dram);
  s.stop();
  drive(s, 1000, 10, [](std::uint64_t) { return 40; });
  EXPECT_EQ(s.skipped_ctas(), 0U);
}

TEST(CtaSampler, ASampledKernelThroughTheGpu) {
  // 4 SMs of a v100 with 3 MiB of L2: 12,000 CTAs stream 24 MiB. The L2 turns over in
  // 12 windows, so blocks of 4 windows.
  const config::GpuConfig config =
      config::load_config("v100", {"num_sms=4", "l2.size_bytes=3145728"});
  auto run = [&](bool sample) {
    Gpu gpu(config);
    gpu.set_cta_sampling(sample);
    std::vector<std::unique_ptr<traces::KernelTrace>> kernels;
    kernels.push_back(streaming(12000));
    auto workload = traces::workload_from_kernels(std::move(kernels));
    return gpu.run(*workload).at(0);
  };
  const KernelResult full = run(false), sampled = run(true);
  EXPECT_FALSE(full.sampled);
  ASSERT_TRUE(sampled.waves_sampled);
  EXPECT_TRUE(sampled.sampled);
  EXPECT_EQ(sampled.warp_insts, full.warp_insts);
  EXPECT_LT(sampled.simulated_warp_insts * 2, sampled.warp_insts);
  const double error =
      std::abs(static_cast<double>(sampled.cycles) - static_cast<double>(full.cycles)) /
      static_cast<double>(full.cycles);
  EXPECT_LT(error, 0.05) << sampled.cycles << " against " << full.cycles;
  EXPECT_GT(sampled.cycles_ci95_pct, 0.0);
  EXPECT_NEAR(sampled.dram_bytes, full.dram_bytes, 0.05 * full.dram_bytes);
}

TEST(CtaSampler, SkippedCtasLeaveTheirLinesInTheL2) {
  // A kernel of 12,000 CTAs writes 24 MiB, sampled; the next reads what CTAs 10,800 to
  // 11,599 wrote (1.6 MiB, skipped ones, not the tail). In full, those dirty lines are
  // still in the 3 MiB L2. With the skipped CTAs' stores warmed into the L2 the reader
  // finds them there too; without, it reads them from DRAM.
  const config::GpuConfig config =
      config::load_config("v100", {"num_sms=4", "l2.size_bytes=3145728"});
  auto run = [&](bool sample, bool warm) {
    Gpu gpu(config);
    gpu.set_cta_sampling(sample);
    gpu.set_sampling_warmup(warm);
    std::vector<std::unique_ptr<traces::KernelTrace>> kernels;
    kernels.push_back(streaming(12000, true));
    kernels.push_back(streaming(800, false, 10800, 2));
    auto workload = traces::workload_from_kernels(std::move(kernels));
    return gpu.run(*workload);
  };
  const std::vector<KernelResult> full = run(false, true), warmed = run(true, true),
                                  cold = run(true, false);
  ASSERT_TRUE(warmed.at(0).waves_sampled);
  ASSERT_TRUE(cold.at(0).waves_sampled);
  const double read = 800.0 * 2048;
  EXPECT_LT(full.at(1).dram_bytes, 0.05 * read);
  EXPECT_LT(warmed.at(1).dram_bytes, 0.05 * read);
  EXPECT_GT(cold.at(1).dram_bytes, 0.9 * read);
  EXPECT_NEAR(warmed.at(1).l2_hit_rate, full.at(1).l2_hit_rate, 0.02);
}

}  // namespace
}  // namespace sassim::sim
