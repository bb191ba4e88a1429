#pragma once
// What one simulated kernel launch produced.
#include <cstdint>
#include <string>

#include "sim/kernel_energy.h"
#include "sim/kernel_stats.h"
#include "sim/speed_of_light.h"
#include "traces/kernel_trace.h"

namespace sassim::sim {

struct KernelResult {
  traces::KernelInfo info;
  std::uint64_t start_cycle = 0;  // core cycle at which the kernel started
  std::uint64_t cycles = 0;  // core cycles from start to the last CTA retiring and memory drained
  std::uint64_t warp_insts = 0;  // warp instructions issued
  double ipc = 0;                // warp instructions per core cycle, whole GPU
  double l1_hit_rate = 0;        // L1 sector hits / sector accesses (0 when none)
  double l2_hit_rate = 0;        // L2 sector hits / sector accesses (0 when none)
  double dram_bytes = 0;         // bytes read and written at the DRAM channels
  double dram_gbps = 0;          // dram_bytes over the kernel's simulated time, GB/s
  double host_seconds = 0;       // wall time spent simulating the kernel
  double seconds = 0;            // simulated time: cycles at the core clock
  // Tensor units' busy sub-core cycles over all sub-cores' cycles (0..1), and the
  // matrix instructions' FLOPs (dense-equivalent for sparse forms) per second.
  double tensor_utilisation = 0;
  double tensor_tflops = 0;
  KernelStats stats;  // every counter's change during the kernel
  // Cycles x SMs x sub-cores: the warp instructions the GPU could have issued.
  std::uint64_t issue_slots = 0;
  // Sampling (sim/kernel_sampler.h, sim/cta_sampler.h): whether the launch was estimated
  // or some of its CTAs skipped rather than all simulated in detail, the warp
  // instructions simulated in detail for it, and the 95% half-width of its cycles as a
  // percentage of them (0 when simulated in detail).
  bool sampled = false;
  bool waves_sampled = false;  // sampling within the kernel skipped some of its CTAs
  std::uint64_t simulated_warp_insts = 0;
  double cycles_ci95_pct = 0;
  // Energy and power (sim/energy_model.h); not modelled when the config has no `energy`.
  KernelEnergy energy;
  // Each hardware limit's use as a percentage of the config's peak, the limit that
  // binds and the arithmetic intensity (sim/speed_of_light.h).
  SpeedOfLight sol;
};

}  // namespace sassim::sim
