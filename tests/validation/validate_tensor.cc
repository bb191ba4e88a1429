// Tensor-core validation: peak throughput of every tensor form against the datasheet
// peaks, dependent mma chain latencies, wgmma latency against N and legacy mma on
// Hopper against the published measurements (../shared/notes/reference-data.md).
// The figures come from the same saturating and chain traces as the tensor tests
// (tests/support/tensor_measurements.h). Prints a markdown section.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tests/support/tensor_measurements.h"
#include "tests/validation/validation_table.h"

namespace sassim::validation {
namespace {

constexpr const char* kV100 = "NVIDIA V100 datasheet (SXM2)";
constexpr const char* kA100 = "NVIDIA A100 datasheet (SXM4), dense";
constexpr const char* kA100Sparse = "NVIDIA A100 datasheet: sparse = 2x dense";
constexpr const char* kH100 = "NVIDIA H100 whitepaper (SXM5, 1830 MHz), dense";
constexpr const char* kH100Sparse = "NVIDIA H100 whitepaper: sparse = 2x dense";
constexpr const char* kRtx4090 = "NVIDIA Ada whitepaper (RTX 4090)";
constexpr const char* kLuo = "Luo et al., IPDPS 2024 (secondary write-up)";

struct Peak {
  const char* preset;
  const char* label;
  const char* opcode;
  double tflops;
  const char* source;
};

void warp_level_peaks(std::vector<Row>& rows) {
  const Peak peaks[] = {
      {"v100", "FP16 (HMMA.884), TFLOP/s", "HMMA.884.F32.F32.STEP0", 125, kV100},
      {"a100", "FP16 (HMMA.16816.F32), TFLOP/s", "HMMA.16816.F32", 312, kA100},
      {"a100", "BF16 (HMMA.16816.F32.BF16), TFLOP/s", "HMMA.16816.F32.BF16", 312, kA100},
      {"a100", "TF32 (HMMA.1688.F32.TF32), TFLOP/s", "HMMA.1688.F32.TF32", 156, kA100},
      {"a100", "INT8 (IMMA.16832), TOPS", "IMMA.16832.S8.S8", 624, kA100},
      {"a100", "FP64 (DMMA.884), TFLOP/s", "DMMA.884", 19.5, kA100},
      {"a100", "FP16 sparse (HMMA.SP.16832), TFLOP/s", "HMMA.SP.16832.F32", 624, kA100Sparse},
      {"rtx4090", "FP16, FP32 accumulate, TFLOP/s", "HMMA.16816.F32", 165.2, kRtx4090},
      {"rtx4090", "FP16, FP16 accumulate, TFLOP/s", "HMMA.16816.F16", 330.3, kRtx4090},
  };
  for (const Peak& p : peaks) {
    rows.push_back(row(fmt::format("{}: {}", p.preset, p.label),
                       measure::saturate(p.preset, p.opcode).tflops(), p.tflops, p.source));
  }
}

void wgmma_peaks(std::vector<Row>& rows) {
  struct WgmmaPeak {
    const char* label;
    const char* opcode;
    double tflops;
    const char* source;
    bool a_in_registers;
  };
  const WgmmaPeak peaks[] = {
      {"BF16 (HGMMA.64x256x16), TFLOP/s", "HGMMA.64x256x16.F32.BF16", 989.4, kH100, false},
      {"FP16 (HGMMA.64x256x16), TFLOP/s", "HGMMA.64x256x16.F32", 989.4, kH100, false},
      {"TF32 (HGMMA.64x256x8), TFLOP/s", "HGMMA.64x256x8.F32.TF32", 494.7, kH100, false},
      {"FP8 (QGMMA.64x256x32), TFLOP/s", "QGMMA.64x256x32.F32.E4M3.E4M3", 1978.9, kH100, false},
      {"INT8 (IGMMA.64x256x32), TOPS", "IGMMA.64x256x32.S32.S8.S8", 1978.9, kH100, false},
      {"BF16 sparse, A from registers, TFLOP/s", "HGMMA.64x256x32.F32.BF16.SP", 1978.8, kH100Sparse,
       true},
      {"FP8 sparse, A from registers, TFLOP/s", "QGMMA.64x256x64.F32.E4M3.E4M3.SP", 3957.8,
       kH100Sparse, true},
      // A and B from shared memory need 144 B/cycle at the sparse rate: the 128 B/cycle
      // shared data path limits it (docs/MODEL.md).
      {"BF16 sparse, A and B from shared memory, TFLOP/s", "HGMMA.64x256x32.F32.BF16.SP", 1978.8,
       kH100Sparse, false},
  };
  for (const WgmmaPeak& p : peaks) {
    const double tflops =
        measure::saturate_warpgroup("h100", p.opcode, 64, 2, p.a_in_registers).tflops();
    rows.push_back(row(fmt::format("h100: {}", p.label), tflops, p.tflops, p.source));
  }
}

void latencies(std::vector<Row>& rows) {
  rows.push_back(row("a100: mma.m16n8k16 FP16 dependent chain, cycles",
                     measure::mma_chain_cycles("a100", "HMMA.16816.F32"), 24.6, kLuo));
  rows.push_back(row("h100 (H800 measured): mma.m16n8k16 FP16 dependent chain, cycles",
                     measure::mma_chain_cycles("h100", "HMMA.16816.F32"), 24.1, kLuo));
  rows.push_back(row("rtx4090: mma.m16n8k16 FP16 (FP16 accumulate) dependent chain, cycles",
                     measure::mma_chain_cycles("rtx4090", "HMMA.16816.F16"), 24.6, kLuo));
  struct Wgmma {
    unsigned n;
    double reference;
    const char* source;
  };
  const Wgmma wgmma[] = {
      {64, 32, "about 32 at N=64 (H200) [secondary write-up]"},
      {128, 64,
       "Accel-Sim Hopper table, N/2 (no measurement at hand; on the published 32..128 line)"},
      {256, 128, "about 128 at N=256 (H200) [secondary write-up]; Accel-Sim N/2"},
  };
  for (const Wgmma& w : wgmma) {
    const std::string opcode = fmt::format("HGMMA.64x{}x16.F32.BF16", w.n);
    rows.push_back(row(fmt::format("h100: wgmma m64n{}k16 BF16; wait, cycles per iteration", w.n),
                       measure::wgmma_chain_cycles("h100", opcode), w.reference, w.source));
  }
}

void legacy_on_hopper(std::vector<Row>& rows) {
  const double legacy = measure::saturate("h100", "HMMA.16816.F32.BF16").tflops();
  const double wgmma = measure::saturate_warpgroup("h100", "HGMMA.64x256x16.F32.BF16").tflops();
  rows.push_back(row("h100: legacy mma.m16n8k16 BF16 / wgmma peak, %", 100 * legacy / wgmma, 63,
                     "Luo et al. (H800) [secondary write-up]"));
}

}  // namespace
}  // namespace sassim::validation

int main() {
  using namespace sassim::validation;
  std::vector<Row> peaks, timing;
  warp_level_peaks(peaks);
  wgmma_peaks(peaks);
  latencies(timing);
  legacy_on_hopper(timing);
  print_table("Tensor cores: peak throughput (validate_tensor)",
              "Saturating synthetic traces (every SM busy with independent matrix "
              "instructions; tests/support/tensor_measurements.h) on each preset at its "
              "preset clock. TOPS for integer forms.",
              peaks);
  print_table("Tensor cores: latency and legacy mma on Hopper (validate_tensor)",
              "Dependent chains on one warp (mma) or one warpgroup (wgmma followed by "
              "WARPGROUP.DEPBAR), per instruction or iteration.",
              timing);
  return 0;
}
