// The output check of one launch of a layer: the CPU reference of its kernel computed on
// the inputs the launch read from the layer's memory (the buffers it writes as they were
// before it ran, the others as they are), compared with what it wrote. Tolerances: the
// suite's (llm_io.h); the GEMMs, whose inputs here are not the suite's dyadic values so
// the FP32 sum depends on its order, within the bound of any order of summation,
// K x 2^-23 x sum |a b| per element, against a double-precision reference.
#pragma once

#include <cstdint>
#include <vector>

#include "traces/emu/capture.h"
#include "traces/emu/suite/suite_io.h"
#include "traces/emu/workload/layer_plan.h"

namespace sassim::emu::workload {

// `before[i]`: argument i's bytes before the launch, for the arguments it writes (empty
// for the others); `memory` bound to the launch (DeviceBuffers::bind).
SuiteCheck check_layer_launch(const PlannedLaunch& launch, const DeviceBuffers& memory,
                              const std::vector<std::vector<uint8_t>>& before);

}  // namespace sassim::emu::workload
