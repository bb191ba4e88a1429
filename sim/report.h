#pragma once
// Console summary of a run: one line per kernel and a total, printed with fmt.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "sim/kernel_result.h"

namespace sassim::sim {

// The whole run, as the summary's total line states it: cycles and warp instructions
// summed over kernels, hit rates of all their sector accesses (0 when none).
struct RunTotal {
  std::size_t kernels = 0;
  std::uint64_t cycles = 0;
  std::uint64_t warp_insts = 0;
  double ipc = 0;
  double l1_hits = 0, l1_accesses = 0, l2_hits = 0, l2_accesses = 0;
  double l1_hit_rate = 0, l2_hit_rate = 0;
  double dram_bytes = 0;
  double host_seconds = 0;
};
RunTotal run_total(const std::vector<KernelResult>& results);

// The table of kernels and the total, then print_summary_notes().
void print_summary(std::FILE* out, const std::vector<KernelResult>& results);
// What follows the table: tensor-core use, the simulation rate, each kernel's CPI stack
// and issue-slot utilisation.
void print_summary_notes(std::FILE* out, const std::vector<KernelResult>& results);

}  // namespace sassim::sim
