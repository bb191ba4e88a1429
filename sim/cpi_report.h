#pragma once
// Where each kernel's cycles went, for the console: the CPI stack (share of resident
// warp cycles in each Nsight-named warp state, largest first) and the issue-slot
// utilisation by functional-unit class. The same numbers come from the HDF5 file's
// counters (gpu.sm[i].warp_cycles.<state>, gpu.sm[i].insts.<unit>) with the kernels
// table's cycles and the config's SM and sub-core counts.
#include <cstdio>
#include <string>
#include <vector>

#include "sim/kernel_result.h"

namespace sassim::sim {

// "long_scoreboard 41.2%, selected 20.0%, ..." (at most `top` states, shares of the
// kernel's warp cycles summed over SMs; states under 0.05% left out).
std::string cpi_stack_line(const KernelStats& stats, std::size_t top);
// "fp32 12.5%, memory 3.1%, ..." (warp instructions of each unit class / issue slots).
std::string issue_utilisation_line(const KernelStats& stats, std::uint64_t issue_slots);
// Both lines for every kernel.
void print_cycle_breakdown(std::FILE* out, const std::vector<KernelResult>& results);

}  // namespace sassim::sim
