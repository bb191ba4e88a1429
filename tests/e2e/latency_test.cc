// Zero-load latencies that come out of the model (not typed in as end-to-end numbers):
// pointer chases of one thread through L1, shared memory, L2 and DRAM on the presets,
// against published microbenchmark figures (Luo et al., IPDPS 2024, Table IV, for A100
// and H800; ../shared/notes/reference-data.md). Each figure is the difference of two
// kernels' cycles divided by the number of extra dependent loads, so launch and drain
// costs cancel.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "sim/gpu.h"
#include "traces/text_trace.h"

namespace sassim::e2e {
namespace {

// One CTA of one warp with one active thread running dependent loads R2 <- [R2] at the
// given addresses (the chase), as a tracer-v4 trace text.
std::string chase_trace(const std::string& opcode, const std::vector<std::uint64_t>& addresses,
                        int binary_version) {
  std::string t = fmt::format(
      "-kernel name = chase\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
      "-shmem = {}\n-nregs = 16\n-binary version = {}\n-cuda stream id = 0\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
      "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
      "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = {}\n",
      opcode == "LDS" ? 49152 : 0, binary_version, addresses.size() + 1);
  std::uint64_t pc = 0;
  for (std::uint64_t a : addresses) {
    t += fmt::format("{:04x} 00000001 1 R2 {} 1 R2 4 0 0x{:x}\n", pc, opcode, a);
    pc += 0x10;
  }
  t += fmt::format("{:04x} ffffffff 0 EXIT 0 0\n#END_TB\n", pc);
  return t;
}

std::uint64_t kernel_cycles(const std::string& preset, const std::string& opcode,
                            const std::vector<std::uint64_t>& addresses) {
  const config::GpuConfig config = config::load_config(preset);
  const int binary_version = std::stoi(config.arch().substr(3));
  std::vector<std::unique_ptr<traces::KernelTrace>> kernels;
  kernels.push_back(
      traces::kernel_from_text(chase_trace(opcode, addresses, binary_version), "chase"));
  auto workload = traces::workload_from_kernels(std::move(kernels));
  sim::Gpu gpu(config);
  return gpu.run(*workload).at(0).cycles;
}

std::vector<std::uint64_t> lines(std::uint64_t base, std::uint64_t count, std::uint64_t stride) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t i = 0; i < count; ++i) out.push_back(base + i * stride);
  return out;
}

std::vector<std::uint64_t> twice(const std::vector<std::uint64_t>& pass) {
  std::vector<std::uint64_t> out = pass;
  out.insert(out.end(), pass.begin(), pass.end());
  return out;
}

// Cycles per load of the second pass over `pass` (the first pass warms the caches).
double second_pass_latency(const std::string& preset, const std::string& opcode,
                           const std::vector<std::uint64_t>& pass) {
  const auto one = kernel_cycles(preset, opcode, pass);
  const auto two = kernel_cycles(preset, opcode, twice(pass));
  return static_cast<double>(two - one) / static_cast<double>(pass.size());
}

// Cycles per load of cold misses (every line distinct, nothing cached).
double cold_latency(const std::string& preset) {
  const auto few = kernel_cycles(preset, "LDG.E", lines(0x10000000, 64, 4096));
  const auto many = kernel_cycles(preset, "LDG.E", lines(0x10000000, 192, 4096));
  return static_cast<double>(many - few) / 128.0;
}

struct Expected {
  std::string preset;
  double l1, shared, l2, dram;
};

class ZeroLoadLatency : public ::testing::TestWithParam<Expected> {};

TEST_P(ZeroLoadLatency, WithinTenPercentOfMeasurements) {
  const Expected& e = GetParam();
  const double l1 = second_pass_latency(e.preset, "LDG.E", lines(0x20000000, 16, 128));
  const double shared = second_pass_latency(e.preset, "LDS", lines(0, 16, 128));
  // 4096 lines (512 KiB) overflow any L1 but stay in L2.
  const double l2 = second_pass_latency(e.preset, "LDG.E", lines(0x30000000, 4096, 128));
  const double dram = cold_latency(e.preset);
  std::printf("%s: L1 %.1f (%.1f), shared %.1f (%.1f), L2 %.1f (%.1f), DRAM %.1f (%.1f) cycles\n",
              e.preset.c_str(), l1, e.l1, shared, e.shared, l2, e.l2, dram, e.dram);
  EXPECT_NEAR(l1, e.l1, 0.1 * e.l1);
  EXPECT_NEAR(shared, e.shared, 0.1 * e.shared);
  EXPECT_NEAR(l2, e.l2, 0.1 * e.l2);
  EXPECT_NEAR(dram, e.dram, 0.1 * e.dram);
}

INSTANTIATE_TEST_SUITE_P(Presets, ZeroLoadLatency,
                         ::testing::Values(Expected{"a100", 37.9, 29.0, 261.5, 466.3},
                                           Expected{"h100", 40.7, 29.0, 263.0, 478.8}),
                         [](const auto& param_info) { return param_info.param.preset; });

}  // namespace
}  // namespace sassim::e2e
