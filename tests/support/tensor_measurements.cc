#include "tests/support/tensor_measurements.h"

#include <memory>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "sim/gpu.h"
#include "traces/text_trace.h"

namespace sassim::measure {
namespace {

// 96 registers for warp-level mma; 168 for wgmma (the N=256 accumulator is R24..R151).
std::string header(std::uint32_t ctas, std::uint32_t threads, int binary_version,
                   int registers = 96) {
  return fmt::format(
      "-kernel name = tensor\n-kernel id = 1\n-grid dim = ({},1,1)\n-block dim = ({},1,1)\n"
      "-shmem = 0\n-nregs = {}\n-binary version = {}\n-cuda stream id = 0\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
      "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n",
      ctas, threads, registers, binary_version);
}

int binary_version(const std::string& preset) {
  return std::stoi(config::load_config(preset).arch().substr(3));
}

std::string cta(std::uint32_t id, const std::string& body) {
  return fmt::format("#BEGIN_TB\n\nthread block = {},0,0\n\n{}#END_TB\n\n", id, body);
}

// `insts` matrix instructions; instruction i accumulates into its own register group
// (R16 + 8 * (i % 8)) unless `dependent`, reading A and B from registers nothing writes.
std::string mma_body(const std::string& opcode, int insts, bool dependent) {
  std::string t = fmt::format("insts = {}\n", insts + 1);
  std::uint64_t pc = 0;
  for (int i = 0; i < insts; ++i, pc += 0x10) {
    const int acc = dependent ? 16 : 16 + 8 * (i % 8);
    t += fmt::format("{:04x} ffffffff 1 R{} {} 3 R2 R4 R{} 0\n", pc, acc, opcode, acc);
  }
  return t + fmt::format("{:04x} ffffffff 0 EXIT 0 0\n", pc);
}

// `insts` wgmma accumulating into R24 (A and B from shared memory descriptors, which
// traces do not record; A from R200.. when `a_in_registers`), each followed by WARPGROUP.DEPBAR
// when `wait`, else one WARPGROUP.DEPBAR at the end (as a kernel waits before its epilogue).
std::string wgmma_body(const std::string& opcode, int insts, bool wait,
                       bool a_in_registers = false) {
  const char* sources = a_in_registers ? "2 R24 R200" : "1 R24";
  std::string t = fmt::format("insts = {}\n", insts * (wait ? 2 : 1) + (wait ? 1 : 2));
  std::uint64_t pc = 0;
  for (int i = 0; i < insts; ++i) {
    t += fmt::format("{:04x} ffffffff 1 R24 {} {} 0\n", pc, opcode, sources);
    pc += 0x10;
    if (wait) {
      t += fmt::format("{:04x} ffffffff 0 WARPGROUP.DEPBAR.LE 0 0\n", pc);
      pc += 0x10;
    }
  }
  if (!wait) {
    t += fmt::format("{:04x} ffffffff 0 WARPGROUP.DEPBAR.LE 0 0\n", pc);
    pc += 0x10;
  }
  return t + fmt::format("{:04x} ffffffff 0 EXIT 0 0\n", pc);
}

std::string warps(int count, const std::string& body) {
  std::string t;
  for (int w = 0; w < count; ++w) t += fmt::format("warp = {}\n", w) + body;
  return t;
}

}  // namespace

sim::KernelResult run_trace_result(const std::string& preset, const std::string& trace_text) {
  config::GpuConfig config = config::load_config(preset);
  // Peaks are steady-state rates: the one-time launch of these short grids stays out.
  config.mutable_sm()->set_cta_launch_latency_cycles(0);
  config.mutable_sm()->set_grid_launch_cycles(0);
  config.mutable_sm()->set_grid_launch_ns(0);
  // Launched twice, the second timed: as a microbenchmark times a warm kernel, its
  // code is then in the instruction caches.
  std::vector<std::unique_ptr<traces::KernelTrace>> kernels;
  kernels.push_back(traces::kernel_from_text(trace_text, "tensor"));
  kernels.push_back(traces::kernel_from_text(trace_text, "tensor"));
  auto workload = traces::workload_from_kernels(std::move(kernels));
  sim::Gpu gpu(config);
  return gpu.run(*workload).at(1);
}

TensorRun run_trace(const std::string& preset, const std::string& trace_text) {
  const config::GpuConfig config = config::load_config(preset);
  const sim::KernelResult r = run_trace_result(preset, trace_text);
  return {static_cast<double>(r.cycles),
          r.stats.sum("gpu.sm[", ".flops.tensor"),
          r.stats.sum("gpu.sm[", ".tensor_busy_cycles"),
          config.clocks().core_mhz(),
          config.num_sms(),
          config.sm().sub_cores()};
}

TensorRun saturate(const std::string& preset, const std::string& opcode, int insts,
                   std::uint32_t ctas_per_sm) {
  const config::GpuConfig config = config::load_config(preset);
  const std::uint32_t ctas = config.num_sms() * ctas_per_sm;
  const std::string body = warps(4, mma_body(opcode, insts, false));
  std::string t = header(ctas, 128, binary_version(preset));
  for (std::uint32_t c = 0; c < ctas; ++c) t += cta(c, body);
  return run_trace(preset, t);
}

std::string saturating_warpgroup_trace(const std::string& preset, const std::string& opcode,
                                       int insts, std::uint32_t warpgroups_per_sm,
                                       bool a_in_registers) {
  const config::GpuConfig config = config::load_config(preset);
  const std::uint32_t ctas = config.num_sms() * warpgroups_per_sm;
  const std::string body = warps(4, wgmma_body(opcode, insts, false, a_in_registers));
  std::string t = header(ctas, 128, binary_version(preset), 168);
  for (std::uint32_t c = 0; c < ctas; ++c) t += cta(c, body);
  return t;
}

TensorRun saturate_warpgroup(const std::string& preset, const std::string& opcode, int insts,
                             std::uint32_t warpgroups_per_sm, bool a_in_registers) {
  return run_trace(
      preset, saturating_warpgroup_trace(preset, opcode, insts, warpgroups_per_sm, a_in_registers));
}

double mma_chain_cycles(const std::string& preset, const std::string& opcode) {
  auto cycles = [&](int n) {
    return run_trace(preset, header(1, 32, binary_version(preset)) +
                                 cta(0, warps(1, mma_body(opcode, n, true))))
        .cycles;
  };
  return (cycles(96) - cycles(32)) / 64.0;
}

double wgmma_chain_cycles(const std::string& preset, const std::string& opcode) {
  auto cycles = [&](int n) {
    return run_trace(preset, header(1, 128, binary_version(preset), 168) +
                                 cta(0, warps(4, wgmma_body(opcode, n, true))))
        .cycles;
  };
  return (cycles(48) - cycles(16)) / 32.0;
}

}  // namespace sassim::measure
