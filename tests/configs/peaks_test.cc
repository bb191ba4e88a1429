// The peaks of the presets (configs/peaks.h) against the published datasheet figures,
// allowing for each preset's own clock and memory settings. Sources:
//   [H100] NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022), H100 SXM5: 132
//          SMs; dense FP16/BF16 989.4, TF32 494.7, FP8 1,978.9 TFLOP/s and INT8 1,978.9
//          TOPS at the 1,830 MHz boost clock; HBM3 3.35 TB/s. NVIDIA H100 datasheet:
//          FP32 67 and FP64 34 TFLOP/s (at the 1,980 MHz maximum boost).
//   [H200] NVIDIA H200 Tensor Core GPU datasheet: 4.8 TB/s HBM3e; same GH100 SM as H100.
//   [A100] NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020): 108 SMs at 1,410
//          MHz; dense FP16/BF16 312, TF32 156, FP64 tensor 19.5, FP32 19.5, FP64 9.7
//          TFLOP/s; INT8 624, INT4 1,248 TOPS; A100 40GB HBM2 1,555 GB/s.
//   [V100] NVIDIA Tesla V100 GPU Architecture whitepaper (2017): 80 SMs at 1,530 MHz;
//          tensor 125, FP32 15.7, FP64 7.8 TFLOP/s; HBM2 900 GB/s.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "configs/config_loader.h"
#include "configs/peaks.h"

namespace sassim::config {
namespace {

double tensor(const GpuPeaks& p, isa::MmaType type) {
  return p.tensor_flops_per_second[static_cast<std::size_t>(type)];
}

// Within `rel` of the published figure.
void expect_near_rel(double got, double published, double rel = 1e-3) {
  EXPECT_NEAR(got, published, published * rel) << got << " vs published " << published;
}

TEST(Peaks, H100MatchesTheWhitepaperAtItsTensorClock) {
  const GpuConfig c = load_config("h100");
  ASSERT_EQ(c.clocks().core_mhz(), 1830);
  const GpuPeaks p = gpu_peaks(c);
  expect_near_rel(tensor(p, isa::MmaType::kBf16), 989.4e12);
  expect_near_rel(tensor(p, isa::MmaType::kF16), 989.4e12);
  expect_near_rel(tensor(p, isa::MmaType::kTf32), 494.7e12);
  expect_near_rel(tensor(p, isa::MmaType::kFp8), 1978.9e12);
  expect_near_rel(tensor(p, isa::MmaType::kInt8), 1978.9e12);
  // 132 SMs x 4096 FLOP per cycle (a 64xNx16 HGMMA of 2048N FLOPs every N/2 cycles).
  EXPECT_DOUBLE_EQ(tensor(p, isa::MmaType::kBf16), 132.0 * 4096 * 1830e6);
  expect_near_rel(p.dram_bytes_per_second, 3.35e12, 2e-3);
  // The preset has no DMMA, INT4 or binary matrix form: those have no peak (GH100 has no
  // INT4 or binary tensor path; its FP64 tensor path is not modelled by a tensor_ops entry).
  EXPECT_EQ(tensor(p, isa::MmaType::kFp64), 0);
  EXPECT_EQ(tensor(p, isa::MmaType::kInt4), 0);
  EXPECT_EQ(tensor(p, isa::MmaType::kBinary), 0);
}

TEST(Peaks, H100FpPeaksMatchTheDatasheetAtTheMaximumBoost) {
  const GpuPeaks p = gpu_peaks(load_config("h100", {"clocks.core_mhz=1980"}));
  expect_near_rel(p.fp32_flops_per_second, 66.9e12);  // 132 x 128 lanes x 2 x 1.98 GHz
  expect_near_rel(p.fp64_flops_per_second, 33.45e12);
  expect_near_rel(tensor(p, isa::MmaType::kBf16), 989.4e12 * 1980 / 1830);
}

TEST(Peaks, H200HasTheDatasheetBandwidthAndTheH100TensorRateAtItsClock) {
  const GpuConfig c = load_config("h200");
  const GpuPeaks p = gpu_peaks(c);
  expect_near_rel(p.dram_bytes_per_second, 4.8e12);
  expect_near_rel(tensor(p, isa::MmaType::kBf16), 989.4e12 * c.clocks().core_mhz() / 1830);
  expect_near_rel(tensor(p, isa::MmaType::kFp8), 1978.9e12 * c.clocks().core_mhz() / 1830);
}

TEST(Peaks, A100MatchesTheWhitepaper) {
  const GpuConfig c = load_config("a100");
  ASSERT_EQ(c.clocks().core_mhz(), 1410);
  const GpuPeaks p = gpu_peaks(c);
  // The whitepaper's round figures: 108 x 4 x 1.41 GHz x 512 FLOP/clk = 311.9 TFLOP/s.
  expect_near_rel(tensor(p, isa::MmaType::kF16), 312e12, 2e-3);
  expect_near_rel(tensor(p, isa::MmaType::kBf16), 312e12, 2e-3);
  expect_near_rel(tensor(p, isa::MmaType::kTf32), 156e12, 2e-3);
  expect_near_rel(tensor(p, isa::MmaType::kInt8), 624e12, 2e-3);
  expect_near_rel(tensor(p, isa::MmaType::kInt4), 1248e12, 2e-3);
  expect_near_rel(tensor(p, isa::MmaType::kFp64), 19.5e12, 2e-3);
  expect_near_rel(p.fp32_flops_per_second, 19.5e12, 2e-3);
  expect_near_rel(p.fp64_flops_per_second, 9.7e12, 6e-3);
  expect_near_rel(p.dram_bytes_per_second, 1.555e12);
  // No FP8 on sm_80; the preset has no BMMA entry (the A100's binary path is not given).
  EXPECT_EQ(tensor(p, isa::MmaType::kFp8), 0);
  EXPECT_EQ(tensor(p, isa::MmaType::kBinary), 0);
  // The A100 80GB's 2,039 GB/s is the 40GB preset with the 80GB part's 3186 MT/s HBM2e
  // on the same 5,120 pins.
  expect_near_rel(
      gpu_peaks(load_config("a100", {"dram.data_rate_mtps=3186"})).dram_bytes_per_second, 2.039e12);
}

TEST(Peaks, V100MatchesTheWhitepaper) {
  const GpuConfig c = load_config("v100");
  const GpuPeaks p = gpu_peaks(c);
  expect_near_rel(tensor(p, isa::MmaType::kF16), 125e12, 3e-3);
  expect_near_rel(p.fp32_flops_per_second, 15.7e12, 3e-3);
  expect_near_rel(p.fp64_flops_per_second, 7.8e12, 5e-3);
  expect_near_rel(p.dram_bytes_per_second, 900e9, 3e-3);
  EXPECT_EQ(tensor(p, isa::MmaType::kBf16), 0);  // Volta has FP16 tensor cores only
  EXPECT_EQ(tensor(p, isa::MmaType::kTf32), 0);
}

TEST(Peaks, CachePeaksAndIssueFollowTheirParameters) {
  const GpuConfig c = load_config("h200");
  const GpuPeaks p = gpu_peaks(c);
  const double core = c.clocks().core_mhz() * 1e6;
  EXPECT_DOUBLE_EQ(p.l1_bytes_per_second, 132.0 * c.l1().data_bytes_per_cycle() * core);
  EXPECT_DOUBLE_EQ(p.l2_bytes_per_second,
                   96.0 * 48 * 1660e6);  // h200: 96 slices x 48 B at 1,660 MHz
  EXPECT_DOUBLE_EQ(p.issue_warp_insts_per_second, 132.0 * 4 * core);
  EXPECT_DOUBLE_EQ(p.int_alu_insts_per_second, 132.0 * 4 / 2 * core);  // interval 2
}

TEST(Peaks, GtxHasNoTensorPeakAndRowsNameOnlyWhatExists) {
  const GpuPeaks p = gpu_peaks(load_config("gtx1080"));
  for (double v : p.tensor_flops_per_second) EXPECT_EQ(v, 0);
  const auto rows = peak_rows(p);
  ASSERT_EQ(rows.size(), 9U);
  EXPECT_EQ(rows.front().name, "fp32");
  EXPECT_EQ(rows.back().name, "dram");
  EXPECT_EQ(rows.back().unit, "bytes/s");
  const auto h100 = peak_rows(gpu_peaks(load_config("h100")));
  ASSERT_EQ(h100.size(), 14U);  // f16, bf16, tf32, fp8, int8, then the nine others
  EXPECT_EQ(h100[0].name, "tensor_f16");
  EXPECT_EQ(h100[3].name, "tensor_fp8");
  EXPECT_EQ(h100[3].unit, "FLOP/s");
}

TEST(Peaks, SparseFormsAndShapesOfAnEntry) {
  isa::MmaType type{};
  TensorTiming sparse;
  sparse.set_opcode("HGMMA.64x256x32.F32.BF16.SP");
  sparse.set_initiation_interval_cycles(4);
  sparse.set_initiation_interval_cycles_per_n(0.5);
  EXPECT_EQ(tensor_form_flops_per_sm_cycle(sparse, 4, isa::Arch::kSm90, type), 0);
  EXPECT_EQ(type, isa::MmaType::kBf16);
  // A warp-level form: 2 x 16 x 8 x 16 FLOPs every 6 cycles on each of 4 sub-cores.
  TensorTiming hmma;
  hmma.set_opcode("HMMA.16816.F32.BF16");
  hmma.set_initiation_interval_cycles(6);
  EXPECT_DOUBLE_EQ(tensor_form_flops_per_sm_cycle(hmma, 4, isa::Arch::kSm90, type), 4096.0 / 6 * 4);
  // One exact warpgroup shape: 2 x 64 x 128 x 16 FLOPs every 80 cycles for the SM.
  TensorTiming exact;
  exact.set_opcode("HGMMA.64x128x16.F32.BF16");
  exact.set_initiation_interval_cycles(80);
  EXPECT_DOUBLE_EQ(tensor_form_flops_per_sm_cycle(exact, 4, isa::Arch::kSm90, type), 262144.0 / 80);
}

}  // namespace
}  // namespace sassim::config
