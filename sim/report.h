#pragma once
// Console summary of a run: one line per kernel and a total, printed with fmt.
#include <cstdio>
#include <vector>

#include "sim/kernel_result.h"

namespace sassim::sim {

void print_summary(std::FILE* out, const std::vector<KernelResult>& results);

}  // namespace sassim::sim
