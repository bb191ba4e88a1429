// Kernel sampling (sim/kernel_signature.h, sim/kernel_sampler.h): signatures, classes,
// when a launch is simulated in detail, the estimates and their intervals, and a
// sampled run through the whole GPU.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "sim/gpu.h"
#include "sim/kernel_sampler.h"
#include "streaming_kernel.h"
#include "traces/text_trace.h"

namespace sassim::sim {
namespace {

// `ctas` CTAs of one warp: a 4-byte load per thread, `ffmas` dependent FFMAs, exit.
std::unique_ptr<traces::KernelTrace> kernel(const std::string& name, int ctas, int ffmas,
                                            int id = 1, int stream = 0) {
  std::string t = fmt::format(
      "-kernel name = {}\n-kernel id = {}\n-grid dim = ({},1,1)\n-block dim = (32,1,1)\n"
      "-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = {}\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
      "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n",
      name, id, ctas, stream);
  for (int c = 0; c < ctas; ++c) {
    t += fmt::format("#BEGIN_TB\n\nthread block = {},0,0\n\nwarp = 0\ninsts = {}\n", c, ffmas + 2);
    t += fmt::format("0000 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x{:x} 4\n", 0x10000 + 128 * c);
    for (int i = 0; i < ffmas; ++i)
      t += fmt::format("{:04x} ffffffff 1 R2 FFMA 1 R2 0\n", 16 + 16 * i);
    t += fmt::format("{:04x} ffffffff 0 EXIT 0 0\n#END_TB\n", 16 + 16 * ffmas);
  }
  return traces::kernel_from_text(t, name + ".traceg");
}

TEST(KernelSignature, CountsInstructionsTheirMixAndGlobalBytes) {
  auto k = kernel("k", 3, 5);
  const KernelSignature s = signature_of(*k);
  EXPECT_EQ(s.name, "k");
  EXPECT_EQ(s.ctas, 3U);
  EXPECT_EQ(s.warp_insts, 3U * 7U);
  EXPECT_EQ(s.mix[static_cast<std::size_t>(isa::UnitClass::kFp32)], 15U);
  EXPECT_EQ(s.global_bytes, 3U * 32U * 4U);
  EXPECT_FALSE(k->next_cta());  // used up
}

KernelSignature sig(const std::string& name, std::uint64_t insts, std::uint64_t bytes = 0) {
  KernelSignature s;
  s.name = name;
  s.grid = {4, 1, 1};
  s.block = {32, 1, 1};
  s.warp_insts = insts;
  s.mix[0] = insts;
  s.global_bytes = bytes;
  return s;
}

TEST(KernelSignature, SimilarWithinTheToleranceOfTheLarger) {
  EXPECT_TRUE(similar(sig("a", 1000), sig("a", 1010), 0.01));   // 10 <= 10.1
  EXPECT_FALSE(similar(sig("a", 1000), sig("a", 1011), 0.01));  // 11 > 10.11
  EXPECT_FALSE(similar(sig("a", 1000), sig("a", 1001), 0.0));
  EXPECT_FALSE(similar(sig("a", 1000, 64), sig("a", 1000, 128), 0.01));
  EXPECT_FALSE(similar(sig("a", 1000), sig("b", 1000), 0.5));
  KernelSignature wider = sig("a", 1000);
  wider.grid.x = 8;
  EXPECT_FALSE(similar(sig("a", 1000), wider, 0.5));
}

TEST(KernelSampler, GroupsLaunchesWithTheFirstOfEachClass) {
  KernelSampler s({sig("a", 1000), sig("b", 1000), sig("a", 1000), sig("a", 1005), sig("c", 10)},
                  {});
  EXPECT_EQ(s.classes(), 3U);
  EXPECT_EQ(s.class_of(0), 0U);
  EXPECT_EQ(s.class_of(1), 1U);
  EXPECT_EQ(s.class_of(2), 0U);
  EXPECT_EQ(s.class_of(3), 0U);
  EXPECT_EQ(s.class_of(4), 2U);
}

KernelResult cycles(std::uint64_t n) {
  KernelResult r;
  r.cycles = n;
  r.warp_insts = 1000;
  r.simulated_warp_insts = 1000;
  r.dram_bytes = 4096;
  r.issue_slots = 8 * n;
  return r;
}

TEST(KernelSampler, AWarmUpThenSamplesUntilTheMeanIsKnown) {
  KernelSampler s(std::vector<KernelSignature>(6, sig("a", 1000)), {});
  EXPECT_TRUE(s.detail(0));
  s.record(0, cycles(500));  // the warm-up: not a sample
  EXPECT_TRUE(s.detail(1));
  s.record(1, cycles(100));
  EXPECT_TRUE(s.detail(2));  // one sample
  s.record(2, cycles(100));
  EXPECT_FALSE(s.detail(3));  // two equal samples: the interval is 0
  traces::KernelInfo info;
  info.name = "a";
  info.id = 4;
  const KernelResult e = s.estimate(3, info, 7000, 1000.0);
  EXPECT_TRUE(e.sampled);
  EXPECT_EQ(e.info.id, 4U);
  EXPECT_EQ(e.start_cycle, 7000U);
  EXPECT_EQ(e.cycles, 100U);
  EXPECT_EQ(e.warp_insts, 1000U);
  EXPECT_EQ(e.simulated_warp_insts, 0U);
  EXPECT_DOUBLE_EQ(e.cycles_ci95_pct, 0.0);
  EXPECT_DOUBLE_EQ(e.ipc, 10.0);
  EXPECT_DOUBLE_EQ(e.seconds, 100e-9);
  EXPECT_DOUBLE_EQ(e.dram_gbps, 4096 / 100e-9 / 1e9);
  EXPECT_EQ(e.issue_slots, 800U);
}

TEST(KernelSampler, SpreadSamplesGiveAStudentTInterval) {
  SamplingOptions options;
  options.max_detailed = 3;
  KernelSampler s(std::vector<KernelSignature>(6, sig("a", 1000)), options);
  const std::uint64_t samples[] = {200, 100, 110, 105};  // warm-up, then samples
  for (std::size_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(s.detail(i)) << i;
    s.record(i, cycles(samples[i]));
  }
  EXPECT_FALSE(s.detail(4));  // interval still wide, but max_detailed samples were taken
  const KernelResult e = s.estimate(4, {}, 0, 1000.0);
  // mean 105, sd 5, t(2) = 4.303: 4.303 x 5 x sqrt(1 + 1/3) / 105.
  EXPECT_EQ(e.cycles, 105U);
  EXPECT_NEAR(e.cycles_ci95_pct, 100.0 * 4.303 * 5.0 * std::sqrt(4.0 / 3.0) / 105.0, 1e-9);
  const KernelResult f = s.estimate(5, {}, 0, 1000.0);
  // Two estimates: their shared mean error adds linearly, their own in quadrature.
  const double mean_error = 2 * 4.303 * 5.0 / std::sqrt(3.0),
               own = 2 * (4.303 * 5.0) * (4.303 * 5.0);
  std::vector<KernelResult> all{cycles(200), cycles(100), cycles(110), cycles(105), e, f};
  EXPECT_NEAR(total_ci95_pct(all, &s), 100.0 * std::sqrt(mean_error * mean_error + own) / 725.0,
              1e-9);
}

TEST(KernelSampler, TValues) {
  EXPECT_DOUBLE_EQ(t95(1), 12.706);
  EXPECT_DOUBLE_EQ(t95(9), 2.262);
  EXPECT_DOUBLE_EQ(t95(30), 2.042);
  EXPECT_DOUBLE_EQ(t95(1000), 1.960);
}

// Ten launches of one kernel and one of another; the second kernel is a class of one.
std::vector<std::unique_ptr<traces::KernelTrace>> launches() {
  std::vector<std::unique_ptr<traces::KernelTrace>> out;
  for (int i = 0; i < 10; ++i) out.push_back(kernel("ten", 8, 40, i + 1));
  out.push_back(kernel("one", 2, 10, 11));
  return out;
}

TEST(KernelSampler, ASampledRunEstimatesTheRepeatsOfAClass) {
  const config::GpuConfig config = config::load_config("v100");
  Gpu full(config);
  auto full_workload = traces::workload_from_kernels(launches());
  const std::vector<KernelResult> want = full.run(*full_workload);

  auto first_pass = traces::workload_from_kernels(launches());
  KernelSampler sampler(workload_signatures(*first_pass), {});
  EXPECT_EQ(sampler.classes(), 2U);
  Gpu gpu(config);
  gpu.set_sampler(&sampler);
  auto workload = traces::workload_from_kernels(launches());
  const std::vector<KernelResult> got = gpu.run(*workload);
  ASSERT_EQ(got.size(), 11U);
  // Warm-up and two samples of "ten" in detail; "one" in detail.
  for (std::size_t i = 0; i < 11; ++i) {
    EXPECT_EQ(got[i].sampled, i >= 3 && i < 10) << i;
    EXPECT_EQ(got[i].warp_insts, want[i].warp_insts) << i;
    EXPECT_EQ(got[i].simulated_warp_insts, got[i].sampled ? 0U : got[i].warp_insts) << i;
    if (i > 0) EXPECT_GE(got[i].start_cycle, got[i - 1].start_cycle + got[i - 1].cycles) << i;
  }
  // The repeats run alike once warm: each estimate is the cycles of the full run.
  for (std::size_t i = 1; i < 10; ++i) EXPECT_EQ(got[i].cycles, want[i].cycles) << i;
  EXPECT_EQ(got[10].cycles, want[10].cycles);
  EXPECT_EQ(got[10].start_cycle, want[10].start_cycle);
}

// Two streams: "long" launches on stream 1 and "short" ones on stream 2.
std::vector<std::unique_ptr<traces::KernelTrace>> two_streams() {
  std::vector<std::unique_ptr<traces::KernelTrace>> out;
  for (int i = 0; i < 16; ++i) {
    out.push_back(kernel("long", 4, 200, 2 * i + 1, 1));
    out.push_back(kernel("short", 2, 20, 2 * i + 2, 2));
  }
  return out;
}

TEST(KernelSampler, AnEstimatedLaunchRunsAloneAfterItsStream) {
  auto first_pass = traces::workload_from_kernels(two_streams());
  KernelSampler sampler(workload_signatures(*first_pass), {});
  Gpu gpu(config::load_config("v100"));
  gpu.set_sampler(&sampler);
  auto workload = traces::workload_from_kernels(two_streams());
  const std::vector<KernelResult> got = gpu.run(*workload);
  ASSERT_EQ(got.size(), 32U);
  std::size_t estimated = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!got[i].sampled) continue;
    ++estimated;
    // No other launch overlaps an estimated one, and it follows its stream's previous.
    for (std::size_t j = 0; j < got.size(); ++j) {
      if (j == i) continue;
      const bool before = got[j].start_cycle + got[j].cycles <= got[i].start_cycle;
      const bool after = got[j].start_cycle >= got[i].start_cycle + got[i].cycles;
      EXPECT_TRUE(before || after) << "launch " << j << " overlaps estimated launch " << i;
    }
    if (i >= 2) EXPECT_GE(got[i].start_cycle, got[i - 2].start_cycle + got[i - 2].cycles) << i;
  }
  EXPECT_GE(estimated, 4U);
}

// Six launches each write 256 KiB of their own, then one reads what the sixth wrote.
std::vector<std::unique_ptr<traces::KernelTrace>> write_then_read() {
  std::vector<std::unique_ptr<traces::KernelTrace>> out;
  for (int w = 0; w < 6; ++w) out.push_back(streaming(128, true, 128 * w, w + 1));
  out.push_back(streaming(128, false, 128 * 5, 7, "read"));
  return out;
}

TEST(KernelSampler, AnEstimatedLaunchLeavesItsLinesInTheL2) {
  // The writers are one class: the first warms up, two are samples, the last three are
  // estimated. The reader finds the sixth writer's dirty lines in the L2 when the
  // estimate warmed it, as in full; without that warm-up it reads them from DRAM.
  const config::GpuConfig config = config::load_config("v100", {"num_sms=4"});
  auto run = [&](bool sample, bool warm) {
    auto first_pass = traces::workload_from_kernels(write_then_read());
    KernelSampler sampler(workload_signatures(*first_pass), {});
    Gpu gpu(config);
    if (sample) gpu.set_sampler(&sampler);
    gpu.set_sampling_warmup(warm);
    auto workload = traces::workload_from_kernels(write_then_read());
    return gpu.run(*workload);
  };
  const std::vector<KernelResult> full = run(false, true), warmed = run(true, true),
                                  cold = run(true, false);
  ASSERT_TRUE(warmed.at(5).sampled);
  ASSERT_FALSE(warmed.at(6).sampled);
  const double read = 128.0 * 2048;
  EXPECT_EQ(full.at(6).dram_bytes, 0.0);
  EXPECT_EQ(warmed.at(6).dram_bytes, 0.0);
  EXPECT_EQ(warmed.at(6).cycles, full.at(6).cycles);
  EXPECT_GE(cold.at(6).dram_bytes, read);
}

}  // namespace
}  // namespace sassim::sim
