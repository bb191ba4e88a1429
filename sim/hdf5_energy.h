#pragma once
// The results file's /energy group (docs/RESULTS.md): each kernel's energy split by
// component, written by write_hdf5() when some kernel's energy was modelled.
#include <H5Cpp.h>

#include <vector>

#include "sim/kernel_result.h"

namespace sassim::sim {

// /energy/joules [kernel][component] (NaN where a kernel's energy was not modelled),
// its `components` and `units` attributes, and /energy/core_voltage_v [kernel].
void write_energy(H5::H5File& file, const std::vector<KernelResult>& results);

}  // namespace sassim::sim
