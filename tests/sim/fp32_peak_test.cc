// FP32 peak per SM per clock that comes out of each preset: independent FFMAs from 8
// warps per sub-core on two SMs of the preset (the fewest every preset's L2 partitioning
// allows) reach the rate its config implies
// (sub-cores x 32 lanes / FP32 initiation interval) and the CUDA C++ Programming Guide's
// arithmetic-instruction throughput table ("32-bit floating-point add, multiply,
// multiply-add", results per clock cycle per multiprocessor): 128 for compute capability
// 6.1, 64 for 7.0, 7.5 and 8.0, 128 for 8.6, 8.9 and 9.0. The rate is the slope between
// two trace lengths, so launch and drain cycles cancel.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "sim/gpu.h"
#include "traces/text_trace.h"

namespace sassim::sim {
namespace {

constexpr std::uint32_t kWarpsPerSubCore = 8;
constexpr std::uint32_t kSms = 2;

// One CTA per SM of `warps` warps, each issuing `ffmas` FFMAs into 16 rotating destinations.
// `sources` are the three source registers (nothing writes them).
std::string ffma_trace(int binary_version, std::uint32_t warps, int ffmas,
                       const std::string& sources) {
  std::string body = fmt::format("insts = {}\n", ffmas + 1);
  std::uint64_t pc = 0;
  for (int i = 0; i < ffmas; ++i, pc += 0x10) {
    body += fmt::format("{:04x} ffffffff 1 R{} FFMA 3 {} 0\n", pc, 16 + i % 16, sources);
  }
  body += fmt::format("{:04x} ffffffff 0 EXIT 0 0\n", pc);
  std::string t = fmt::format(
      "-kernel name = ffma\n-kernel id = 1\n-grid dim = ({},1,1)\n-block dim = ({},1,1)\n"
      "-shmem = 0\n-nregs = 32\n-binary version = {}\n-cuda stream id = 0\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
      "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n",
      kSms, 32 * warps, binary_version);
  for (std::uint32_t c = 0; c < kSms; ++c) {
    t += fmt::format("#BEGIN_TB\n\nthread block = {},0,0\n\n", c);
    for (std::uint32_t w = 0; w < warps; ++w) t += fmt::format("warp = {}\n", w) + body;
    t += "#END_TB\n\n";
  }
  return t;
}

// FP32 results per clock per SM of `preset`.
double fp32_results_per_clock(const std::string& preset, const std::string& sources) {
  const config::GpuConfig config = config::load_config(
      preset, {fmt::format("num_sms={}", kSms), "cluster.gpc_sms="});  // one GPC
  const std::uint32_t warps = kWarpsPerSubCore * config.sm().sub_cores();
  const int version = std::stoi(config.arch().substr(3));
  auto cycles = [&](int ffmas) {
    std::vector<std::unique_ptr<traces::KernelTrace>> kernels;
    kernels.push_back(traces::kernel_from_text(ffma_trace(version, warps, ffmas, sources), "ffma"));
    auto workload = traces::workload_from_kernels(std::move(kernels));
    Gpu gpu(config);
    return static_cast<double>(gpu.run(*workload).at(0).cycles);
  };
  constexpr int kShort = 128, kLong = 384;
  return 32.0 * warps * (kLong - kShort) / (cycles(kLong) - cycles(kShort));  // per SM
}

struct Fp32Peak {
  std::string preset;
  double guide;  // CUDA C++ Programming Guide, results per clock per SM
};

class Fp32PeakTest : public ::testing::TestWithParam<Fp32Peak> {};

// R1, R2, R3: banks 1, 0, 1 of 2 (two reads from bank 1 fit its two ports) and 1, 2, 3
// of 4: no preset's register file delays these FFMAs.
TEST_P(Fp32PeakTest, IndependentFfmasReachTheConfiguredAndTheGuidesPeakWithinTwoPercent) {
  const Fp32Peak& p = GetParam();
  const config::GpuConfig config = config::load_config(p.preset);
  const double configured =
      config.sm().sub_cores() * 32.0 / config.sm().units().fp32().initiation_interval_cycles();
  const double measured = fp32_results_per_clock(p.preset, "R1 R2 R3");
  std::printf("%s FP32: %.2f results/clk/SM (config %.0f, guide %.0f)\n", p.preset.c_str(),
              measured, configured, p.guide);
  EXPECT_NEAR(measured, configured, 0.02 * configured);
  EXPECT_NEAR(measured, p.guide, 0.02 * p.guide);
}

INSTANTIATE_TEST_SUITE_P(Presets, Fp32PeakTest,
                         ::testing::Values(Fp32Peak{"gtx1080", 128}, Fp32Peak{"v100", 64},
                                           Fp32Peak{"rtx2060", 64}, Fp32Peak{"a100", 64},
                                           Fp32Peak{"rtx3070", 128}, Fp32Peak{"rtx4090", 128},
                                           Fp32Peak{"h100", 128}),
                         [](const auto& param_info) { return param_info.param.preset; });

TEST(Fp32PeakBankConflicts, ThreeSourcesInOneBankHalveTheRateOfAFullWidthPipe) {
  // rtx3070: FP32 interval 1, 2 banks x 2 reads: R2, R4, R6 take 2 read cycles.
  const config::GpuConfig config = config::load_config("rtx3070");
  const config::RegisterFileConfig& rf = config.sm().register_file();
  ASSERT_EQ(rf.banks(), 2U);
  ASSERT_EQ(rf.read_ports_per_bank(), 2U);
  const double read_cycles = (3.0 + rf.read_ports_per_bank() - 1) / rf.read_ports_per_bank();
  const double expected = config.sm().sub_cores() * 32.0 / read_cycles;
  EXPECT_NEAR(fp32_results_per_clock("rtx3070", "R2 R4 R6"), expected, 0.02 * expected);
}

}  // namespace
}  // namespace sassim::sim
