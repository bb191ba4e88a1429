#pragma once
// Console speed-of-light section of `sassim run`: per kernel, each hardware limit's use
// as a percentage of the config's peak, the limit that binds and the arithmetic
// intensity (sim/speed_of_light.h).
#include <cstdio>
#include <vector>

#include "sim/kernel_result.h"

namespace sassim::sim {

// A header and one line per kernel that ran; then a line for each tensor operand type
// that some kernel used without a peak in the config. Nothing for an empty run.
void print_speed_of_light(std::FILE* out, const std::vector<KernelResult>& results);

}  // namespace sassim::sim
