#pragma once
// Per-kernel totals of a workload, for `sassim trace info`.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "traces/kernel_trace.h"

namespace sassim::traces {

struct KernelSummary {
  KernelInfo info;
  std::uint64_t ctas = 0;
  std::uint64_t warps = 0;       // warps with at least one instruction
  std::uint64_t warp_insts = 0;  // dynamic warp instructions
  std::uint64_t mem_insts = 0;   // of which access memory (MemKind other than kNone)
  std::map<std::string, std::uint64_t> opcode_mix;  // by base mnemonic
};

// Reads every kernel of `workload` to its end (consuming it).
std::vector<KernelSummary> summarize(Workload& workload);

}  // namespace sassim::traces
