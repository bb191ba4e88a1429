#pragma once
// simulation.deadlock_cycles against the config's own fixed latencies: the engine calls
// a deadlock when no unit makes progress for that many core cycles, so it must exceed
// the longest time a unit may wait, by the config, without any unit progressing.
#include <string>
#include <vector>

#include "configs/sassim_config.pb.h"

namespace sassim::config {

// The longest fixed wait of `config`, in core cycles, and the fields that set it.
struct LongestWait {
  double core_cycles = 0;
  std::string fields;  // "sm.grid_launch_cycles = 230 + sm.grid_launch_ns = 1263"
};
LongestWait longest_fixed_wait(const GpuConfig& config);

// Appends a problem when simulation.deadlock_cycles does not exceed longest_fixed_wait().
void check_deadlock_cycles(const GpuConfig& config, std::vector<std::string>& problems);

}  // namespace sassim::config
