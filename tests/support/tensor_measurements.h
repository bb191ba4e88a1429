#pragma once
// Tensor-core figures measured by running generated traces through the whole
// simulator: saturating runs of independent matrix instructions on every SM
// (throughput) and dependent chains on one warp or warpgroup (latency). What the
// end-to-end tensor tests check and tests/validation/validate_tensor reports.
#include <cstdint>
#include <string>

#include "sim/kernel_result.h"

namespace sassim::measure {

struct TensorRun {
  double cycles = 0, tensor_flops = 0, tensor_busy = 0;
  double core_mhz = 0;
  std::uint32_t sms = 0, sub_cores = 0;
  double tflops() const { return tensor_flops / (cycles / (core_mhz * 1e6)) / 1e12; }
  // Busy sub-core tensor-unit cycles over all sub-cores' cycles.
  double utilisation() const { return tensor_busy / (cycles * sms * sub_cores); }
};

// Runs one kernel given as Accel-Sim trace text on a preset, twice: the figures are
// the second launch's, its code warm in the instruction caches.
TensorRun run_trace(const std::string& preset, const std::string& trace_text);
// The whole result of run_trace's timed (second) launch.
sim::KernelResult run_trace_result(const std::string& preset, const std::string& trace_text);

// Every SM holds `ctas_per_sm` CTAs of 4 warps, each warp issuing `insts` warp-level
// matrix instructions (`opcode`) into 8 rotating accumulators: nothing waits for a result.
TensorRun saturate(const std::string& preset, const std::string& opcode, int insts = 256,
                   std::uint32_t ctas_per_sm = 4);

// Every SM holds `warpgroups_per_sm` CTAs of one warpgroup (4 warps), each warp issuing
// `insts` warpgroup instructions (`opcode`, HGMMA/QGMMA/IGMMA) accumulating into R24:
// a GEMM main loop without waits, then WARPGROUP.DEPBAR. A and B come from shared
// memory, or only B when `a_in_registers`.
TensorRun saturate_warpgroup(const std::string& preset, const std::string& opcode, int insts = 64,
                             std::uint32_t warpgroups_per_sm = 2, bool a_in_registers = false);
// The trace text saturate_warpgroup runs.
std::string saturating_warpgroup_trace(const std::string& preset, const std::string& opcode,
                                       int insts = 64, std::uint32_t warpgroups_per_sm = 2,
                                       bool a_in_registers = false);

// Cycles per instruction of a dependent chain of warp-level matrix instructions on
// one warp (each reads the previous one's accumulator).
double mma_chain_cycles(const std::string& preset, const std::string& opcode);

// Cycles per iteration of wgmma; WARPGROUP.DEPBAR (wgmma, commit, wait) on one
// warpgroup: the latency a microbenchmark measures.
double wgmma_chain_cycles(const std::string& preset, const std::string& opcode);

}  // namespace sassim::measure
