// Hopper warpgroup mma (wgmma) on the h100 preset: saturating traces of HGMMA / QGMMA
// on every SM reach the datasheet dense and sparse peaks, and wgmma; wait chains run
// at the preset's per-N latency, which follows the published 32..128-cycle trend
// (../shared/notes/reference-data.md).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "configs/config_loader.h"
#include "isa/opcode.h"
#include "sim/exec_timing.h"
#include "tests/support/tensor_measurements.h"

namespace sassim::e2e {
namespace {

struct Peak {
  std::string name, opcode;
  double datasheet_tflops;  // H100 SXM5 whitepaper, at 1830 MHz
  bool a_in_registers = false;
};

class WgmmaPeak : public ::testing::TestWithParam<Peak> {};

TEST_P(WgmmaPeak, SaturatingTraceReachesTheDatasheetPeakWithinThreePercent) {
  const Peak& p = GetParam();
  const measure::TensorRun r =
      measure::saturate_warpgroup("h100", p.opcode, 64, 2, p.a_in_registers);
  std::printf("h100 %s: %.1f TFLOP/s (datasheet %.1f), %.0f cycles, tensor units %.1f%% busy\n",
              p.opcode.c_str(), r.tflops(), p.datasheet_tflops, r.cycles, 100 * r.utilisation());
  EXPECT_NEAR(r.tflops(), p.datasheet_tflops, 0.03 * p.datasheet_tflops);
  EXPECT_GT(r.utilisation(), 0.97);
}

INSTANTIATE_TEST_SUITE_P(
    H100, WgmmaPeak,
    ::testing::Values(Peak{"bf16", "HGMMA.64x256x16.F32.BF16", 989.4},
                      Peak{"fp16", "HGMMA.64x256x16.F32", 989.4},
                      Peak{"fp16_n128", "HGMMA.64x128x16.F32", 989.4},
                      Peak{"tf32", "HGMMA.64x256x8.F32.TF32", 494.7},
                      Peak{"fp8", "QGMMA.64x256x32.F32.E4M3.E4M3", 1978.9},
                      Peak{"fp8_e5m2", "QGMMA.64x256x32.F32.E5M2.E4M3", 1978.9},
                      Peak{"int8", "IGMMA.64x256x32.S32.S8.S8", 1978.9},
                      Peak{"bf16_a_in_registers", "HGMMA.64x256x16.F32.BF16", 989.4, true},
                      // Sparse forms read B of twice the K: 16 KB per 128-cycle operation
                      // is the whole 128 B/cycle shared data path, so A must come from
                      // registers for the 2x peak (see SparseWithAFromSharedMemory).
                      Peak{"bf16_sparse", "HGMMA.64x256x32.F32.BF16.SP", 2 * 989.4, true},
                      Peak{"fp8_sparse", "QGMMA.64x256x64.F32.E4M3.E4M3.SP", 2 * 1978.9, true}),
    [](const auto& param_info) { return param_info.param.name; });

TEST(WgmmaPeak, SparseWithAFromSharedMemoryIsLimitedByTheSharedDataPath) {
  // A (64x32 BF16, half stored: 2 KB) + B (256x32 BF16: 16 KB) per 128-cycle interval
  // exceeds l1.data_bytes_per_cycle = 128: the operations start every 18432 / 128 = 144
  // cycles, 128/144 = 88.9% of the sparse peak.
  const measure::TensorRun r = measure::saturate_warpgroup("h100", "HGMMA.64x256x32.F32.BF16.SP");
  std::printf("h100 sparse BF16 with A from shared memory: %.1f TFLOP/s\n", r.tflops());
  EXPECT_NEAR(r.tflops(), 2 * 989.4 * 128 / 144, 0.03 * 2 * 989.4 * 128 / 144);
}

// The preset's latency for N, as the timing model resolves it.
std::uint32_t preset_latency(unsigned n) {
  const config::GpuConfig h100 = config::load_config("h100");
  const sim::ExecTiming timing(h100.sm(), isa::Arch::kSm90, isa::Arch::kSm90);
  const std::string text = "HGMMA.64x" + std::to_string(n) + "x16.F32.BF16";
  return timing.latency(*isa::OpcodeTable::get(isa::Arch::kSm90).decode(text));
}

TEST(WgmmaLatency, ChainRunsAtThePresetLatencyForEachN) {
  // Published trend [LUO, H200]: about 32 cycles at N=64 growing to 128 at N=256.
  const double published[] = {32, 64, 128};
  const unsigned ns[] = {64, 128, 256};
  for (int i = 0; i < 3; ++i) {
    const std::string opcode = "HGMMA.64x" + std::to_string(ns[i]) + "x16.F32.BF16";
    const double per_iteration = measure::wgmma_chain_cycles("h100", opcode);
    std::printf("h100 %s; WARPGROUP.DEPBAR chain: %.2f cycles (preset %u, published ~%.0f)\n",
                opcode.c_str(), per_iteration, preset_latency(ns[i]), published[i]);
    EXPECT_DOUBLE_EQ(per_iteration, preset_latency(ns[i])) << opcode;
    EXPECT_NEAR(per_iteration, published[i], 0.1 * published[i]) << opcode;
  }
}

}  // namespace
}  // namespace sassim::e2e
