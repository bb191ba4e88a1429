#include "tests/support/cta_measurements.h"

#include <algorithm>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sim/gpu.h"
#include "tests/support/chase_traces.h"
#include "traces/text_trace.h"

namespace sassim::measure {

namespace {

// A grid of `ctas` one-dimensional CTAs of `threads` threads; the text of warp w of CTA c
// (after its "warp =" line) from warp_text(c, w, active mask as 8 hex digits).
template <typename WarpText>
std::string grid_trace(std::string_view name, std::uint32_t ctas, std::uint32_t threads,
                       std::uint32_t shmem, int binary_version, WarpText warp_text) {
  std::string t = trace_header(name, 1, ctas, threads, shmem, binary_version);
  const std::uint32_t warps = (threads + 31) / 32;
  for (std::uint32_t c = 0; c < ctas; ++c) {
    t += fmt::format("#BEGIN_TB\n\nthread block = {},0,0\n\n", c);
    for (std::uint32_t w = 0; w < warps; ++w) {
      const std::uint32_t lanes = std::min(32U, threads - 32 * w);
      const std::string mask = fmt::format("{:08x}", lanes == 32 ? 0xffffffffU : (1U << lanes) - 1);
      t += fmt::format("warp = {}\n", w) + warp_text(c, w, mask);
    }
    t += "#END_TB\n";
  }
  return t;
}

int arch_version(const config::GpuConfig& config) {
  return std::stoi(config.arch().substr(3));
}

// The cycles of the one kernel `text` describes, run alone on `config`.
double kernel_cycles(const config::GpuConfig& config, const std::string& text) {
  std::vector<std::unique_ptr<traces::KernelTrace>> kernels;
  kernels.push_back(traces::kernel_from_text(text, "measure"));
  auto workload = traces::workload_from_kernels(std::move(kernels));
  sim::Gpu gpu(config);
  return static_cast<double>(gpu.run(*workload).at(0).cycles);
}

}  // namespace

std::string store_once_trace(std::uint32_t ctas, std::uint32_t threads, std::uint32_t shmem,
                             int binary_version) {
  constexpr std::uint64_t kArray = 0x7f1000000000;
  return grid_trace(
      "store_once", ctas, threads, shmem, binary_version,
      [&](std::uint32_t c, std::uint32_t w, const std::string& m) {
        const std::uint64_t address = kArray + (std::uint64_t{c} * threads + 32 * w) * 8;
        return fmt::format(
            "insts = 10\n"
            "0000 {m} 1 R0 S2R 0 0\n0010 {m} 1 R3 S2R 0 0\n0020 {m} 1 R0 IMAD 2 R0 R3 0\n"
            "0030 {m} 0 ISETP.GE.U32.AND 1 R0 0\n0040 {m} 0 BRA 0 0\n0050 {m} 1 R4 MOV 0 0\n"
            "0060 {m} 1 R5 MOV 0 0\n0070 {m} 1 R2 IMAD.WIDE 1 R0 0\n"
            "0080 {m} 0 STG.E.64 3 R2 R4 R5 8 1 0x{a:x} 8\n0090 {m} 0 EXIT 0 0\n",
            fmt::arg("m", m), fmt::arg("a", address));
      });
}

double cta_turnaround_cycles(const config::GpuConfig& config, std::uint32_t threads) {
  const std::uint32_t shmem = config.l1().max_shared_per_cta_bytes();
  auto cycles = [&](std::uint32_t waves) {
    return kernel_cycles(
        config, store_once_trace(waves * config.num_sms(), threads, shmem, arch_version(config)));
  };
  constexpr std::uint32_t kShort = 8, kLong = 16;
  return (cycles(kLong) - cycles(kShort)) / (kLong - kShort);
}

double empty_kernel_cycles(const config::GpuConfig& base, std::uint32_t ctas, std::uint32_t threads,
                           double core_mhz) {
  config::GpuConfig config = base;
  config.mutable_clocks()->set_core_mhz(core_mhz);
  config.mutable_clocks()->set_l2_mhz(core_mhz);
  return kernel_cycles(config, grid_trace("empty", ctas, threads, 0, arch_version(config),
                                          [](std::uint32_t, std::uint32_t, const std::string& m) {
                                            return "insts = 1\n0000 " + m + " 0 EXIT 0 0\n";
                                          }));
}

std::span<const EmptyKernelPoint> empty_kernel_points() {
  // kernels/ubench/hw_h200.csv: launch_window#1..#3, two or three measurements each.
  static constexpr EmptyKernelPoint kPoints[] = {
      {"h200", "base", 132, 32, 1465.5, 2751.1, 3, true},
      {"h200", "none", 132, 32, 1935.4, 3344.4, 2, true},
      {"h200", "base", 132, 1024, 1473.4, 2797.2, 3, false},
      {"h200", "none", 132, 1024, 1945.6, 3361.9, 2, false},
      {"h200", "base", 528, 256, 1481.0, 3095.4, 3, false},
      {"h200", "none", 528, 256, 1966.9, 3713.6, 2, false},
  };
  return kPoints;
}

std::span<const StreamInitPoint> stream_init_points() {
  static constexpr StreamInitPoint kPoints[] = {
      {"v100", "V100", "v100.txt", 80, 1380, 16, 39, true},
      {"v100", "V100", "v100.txt", 80, 1380, 160, 369, false},
      {"a100", "A100 40 GB", "a100_40.txt", 108, 1410, 16, 54, true},
      {"a100", "A100 40 GB", "a100_40.txt", 108, 1410, 256, 802, false},
      {"a100", "A100 40 GB", "a100_40.txt", 108, 1410, 512, 1501, false},
      {"h100", "GH200", "gh200.txt", 132, 1980, 16, 77, true},
      {"h100", "GH200", "gh200.txt", 132, 1980, 160, 731, false},
  };
  return kPoints;
}

double turnaround_from_bandwidth(double gbps, std::uint32_t sms, std::uint32_t threads,
                                 double core_mhz) {
  const double bytes_per_cta = 8.0 * threads;
  const double ctas_per_second_per_sm = gbps * 1e9 / bytes_per_cta / sms;
  return core_mhz * 1e6 / ctas_per_second_per_sm;
}

}  // namespace sassim::measure
