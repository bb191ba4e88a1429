#pragma once
// TMA figures measured on the memory system under a mock SM: what the memsys tests
// check and tests/validation/validate_tma reports.
#include <cstdint>

#include "configs/sassim_config.pb.h"

namespace sassim::measure {

// Mean core cycles from a TMA load reaching SM 0's engine to its completion (data in
// shared memory), one copy at a time, of `bytes` from each of `samples` L2-resident
// lines whose slices are in a partition SM 0 is near (far = false) or not (far = true).
double tma_load_latency(const config::GpuConfig& config, std::uint32_t bytes, bool far,
                        std::uint32_t samples);

}  // namespace sassim::measure
