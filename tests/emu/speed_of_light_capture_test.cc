// Speed of light of suite kernels captured from their committed listings and replayed:
// a streaming copy is bound by DRAM, a tensor-core GEMM by what truly limits it, each
// with percentages in a sane range.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "configs/config_loader.h"
#include "kernels/suite.h"
#include "sim/gpu.h"
#include "tests/emu/listing_capture.h"
#include "tests/support/scratch_dir.h"
#include "traces/accelsim_reader.h"
#include "traces/emu/suite/suite_io.h"

namespace sassim::emu {
namespace {

namespace fs = std::filesystem;

double pct(const sim::SpeedOfLight& s, sim::SolLimit limit) {
  return s.pct[static_cast<std::size_t>(limit)];
}

// Captures `kernel` from kernels/sass/<arch> on `values` and replays it on `preset`.
sim::KernelResult capture_and_run(const std::string& arch, const std::string& kernel,
                                  const std::vector<std::string_view>& values,
                                  const std::string& preset) {
  const Captured c = capture_listing(arch, kernel, values, "sol_");
  EXPECT_TRUE(c.check.ok);
  const fs::path& folder = c.folder;
  auto workload = traces::open_accelsim_workload(folder);
  sim::Gpu gpu(config::load_config(preset, {}));
  const auto results = gpu.run(*workload);
  fs::remove_all(folder);
  EXPECT_EQ(results.size(), 1U);
  return results.at(0);
}

void print(const char* what, const sim::KernelResult& r) {
  const sim::SpeedOfLight& s = r.sol;
  std::printf("%s: %llu cycles, bound by %s:", what, static_cast<unsigned long long>(r.cycles),
              std::string(s.bound_by_name()).c_str());
  for (std::size_t i = 0; i < sim::kNumSolLimits; ++i) {
    std::printf(" %s %.1f%%",
                std::string(sim::sol_limit_name(static_cast<sim::SolLimit>(i))).c_str(), s.pct[i]);
  }
  std::printf(", %.3g FLOP/byte\n", s.arithmetic_intensity);
}

TEST(SpeedOfLightCapture, StreamCopyIsBoundByDram) {
  const sim::KernelResult r = capture_and_run("sm_80", "stream_copy", {"8388608"}, "a100");
  print("a100 stream_copy 8M floats", r);
  EXPECT_EQ(r.sol.bound_by, sim::SolLimit::kDram);
  EXPECT_GT(pct(r.sol, sim::SolLimit::kDram), 60.0);
  EXPECT_LE(pct(r.sol, sim::SolLimit::kDram), 100.0);
  // A copy does no arithmetic; the FLOPs counted are those of the HFMA2.MMA the compiler
  // uses to move a constant into a register (isa/flops.h counts every HFMA2).
  EXPECT_DOUBLE_EQ(r.sol.arithmetic_intensity,
                   r.stats.sum("gpu.sm[", ".flops.fp16") / r.dram_bytes);
  EXPECT_LT(r.sol.arithmetic_intensity, 1.0);
}

TEST(SpeedOfLightCapture, TensorCoreGemmOnA100) {
  const sim::KernelResult r =
      capture_and_run("sm_80", "hgemm_mma", {"1024", "1024", "256"}, "a100");
  print("a100 hgemm_mma 1024x1024x256", r);
  const double f16 = r.sol.tensor_pct[static_cast<std::size_t>(isa::MmaType::kF16)];
  // 2 x M x N x K FLOPs over the A100's 311.9 TFLOP/s FP16 dense peak (108 SMs x 4
  // sub-cores x 4096 FLOPs per 8 cycles x 1.41 GHz) for the kernel's time.
  const double peak = 108.0 * 4 * 4096 / 8 * 1.41e9;
  EXPECT_NEAR(f16, 100.0 * 2 * 1024 * 1024 * 256 / (peak * r.seconds), 1e-9);
  EXPECT_DOUBLE_EQ(pct(r.sol, sim::SolLimit::kTensor), f16);
  // 64 CTAs of 128x128 on 108 SMs, K = 256: too few CTAs and too short a K loop to fill
  // the tensor pipes, so no limit is near its peak (latency-bound); the busiest is the
  // L2, which every CTA of a row or column reads its operands from.
  EXPECT_EQ(r.sol.bound_by, sim::SolLimit::kL2);
  EXPECT_GT(f16, 5.0);
  EXPECT_LT(f16, pct(r.sol, sim::SolLimit::kL2));
  for (double p : r.sol.pct) EXPECT_LE(p, 100.5);
}

}  // namespace
}  // namespace sassim::emu
