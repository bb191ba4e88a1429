#pragma once
// Power capping (`energy.power_cap`, docs/ENERGY.md): a GPU whose average power over a
// window exceeds its board limit lowers its SM clock, and the voltage with it, until
// the limit holds. A workload that runs over and over settles at the highest clock of
// the GPU's clock table at which it does; sassim finds that clock by simulating the
// workload at a few clocks: at clocks.core_mhz, then at clocks on the grid of
// `step_mhz` steps below it, narrowing the bracket between the highest clock found
// within the limit and the lowest found above it by interpolating the power between
// them, until they are one step apart.
#include <cstdint>
#include <functional>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "sim/kernel_result.h"

namespace sassim::sim {

// The highest average power of `results` over any window of `window_s` seconds (0: over
// the whole span from the first kernel's start to the last one's end). A kernel's
// energy is spread evenly over its time; time between kernels draws nothing.
double peak_window_power_w(const std::vector<KernelResult>& results, double core_mhz,
                           double window_s);

struct PowerCapSearch {
  double limit_w = 0;
  double start_mhz = 0;  // clocks.core_mhz: the top of the grid
  double step_mhz = 15;
  double min_mhz = 0;  // no clock below the grid's lowest at or above this
  std::uint32_t max_runs = 10;
};

struct PowerCapResult {
  double core_mhz = 0;     // the clock chosen
  double power_w = 0;      // its peak window power
  bool within = false;     // false: even the lowest clock tried draws more than the limit
  std::uint32_t runs = 0;  // clocks simulated
};

// `power_at(mhz)` simulates the workload at that SM clock and returns its peak window
// power; it is called once per clock tried, first at start_mhz.
PowerCapResult find_capped_clock(const PowerCapSearch& search,
                                 const std::function<double(double)>& power_at);

// A workload run under the config's power cap: the config at the clock chosen, that
// run's results, the search's outcome and the power at clocks.core_mhz.
struct CappedRun {
  config::GpuConfig config;
  std::vector<KernelResult> results;
  PowerCapResult cap;
  double uncapped_power_w = 0;
};

// Runs `simulate` (the workload on a config) at the clocks find_capped_clock tries, with
// the search and window of `config`'s energy section (energy.power_cap set).
CappedRun run_power_capped(
    const config::GpuConfig& config,
    const std::function<std::vector<KernelResult>(const config::GpuConfig&)>& simulate);

}  // namespace sassim::sim
