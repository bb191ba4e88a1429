// Output checks of the microbenchmark kernels (kernels/ubench/) after capture.
#pragma once

#include "kernels/launch.h"
#include "traces/emu/capture.h"
#include "traces/emu/suite/suite_io.h"

namespace sassim::emu {

// shared_bank_conflicts: the transpose against ubench::transpose_reference. The timed
// kernels: every thread that records its clocks wrote a pair with stop > start (the
// others wrote none), and its sink (the chase's last pointer or index, the loaded sums
// in the kernel's order of additions, the multiply-add chain) or mem_bw's c = a + b +
// d + e + f equals the CPU's value exactly.
SuiteCheck check_ubench_outputs(const kernels::Launch& launch, DeviceBuffers& buffers);

}  // namespace sassim::emu
