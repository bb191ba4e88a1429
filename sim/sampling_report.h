#pragma once
// The console lines of a run with kernel sampling (sim/kernel_sampler.h).
#include <cstdio>
#include <vector>

#include "sim/kernel_result.h"

namespace sassim::sim {

// How many launches were estimated and how many sampled within, the warp instructions simulated in
// detail against the workload's, and the 95% interval of the total cycles (`total_ci95_pct`).
void print_sampling_summary(std::FILE* out, const std::vector<KernelResult>& results,
                            double total_ci95_pct);

}  // namespace sassim::sim
