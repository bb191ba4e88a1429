#pragma once
// What kernel sampling (sim/kernel_sampler.h) groups launches by: the launch's header
// (name, grid, block, cluster, shared memory, registers) and what a pass over its
// trace finds: CTAs, warp instructions, the instruction mix by functional-unit class,
// and the bytes its global memory instructions move (active threads x access width).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "isa/opcode.h"
#include "traces/kernel_trace.h"

namespace sassim::sim {

struct KernelSignature {
  std::string name;
  traces::Dim3 grid, block, cluster;
  std::uint32_t shmem_bytes = 0, nregs = 0;
  std::uint64_t ctas = 0;
  std::uint64_t warp_insts = 0;
  std::array<std::uint64_t, isa::kNumUnitClasses> mix{};  // warp instructions by unit class
  std::uint64_t global_bytes = 0;
};

// Reads every CTA of `kernel` (which is then used up).
KernelSignature signature_of(traces::KernelTrace& kernel);

// The signature of every kernel launch of `workload` (which is then used up), in launch
// order; launches of one kernel file (KernelInfo::source) read it once.
std::vector<KernelSignature> workload_signatures(traces::Workload& workload);

// Same header, and warp instructions, each class of the mix and global bytes within
// `tolerance` of each other (relative to the larger; 0: equal).
bool similar(const KernelSignature& a, const KernelSignature& b, double tolerance);

}  // namespace sassim::sim
