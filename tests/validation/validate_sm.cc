// SM-level validation: the CTA turnaround of each preset (one CTA per SM, each thread
// storing 8 bytes once, tests/support/cta_measurements.h) against the RRZE gpu-benches
// "gpu-stream" init kernel measured at one CTA per SM
// (../shared/reference-traces/gpu-benches-rrze/gpu-stream). Prints a markdown section.
#include <vector>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "tests/support/cta_measurements.h"
#include "tests/validation/validation_table.h"

int main() {
  using namespace sassim;
  std::vector<validation::Row> rows;
  // The calibration points set each preset's cta_launch_latency_cycles; the larger
  // blocks check how the turnaround grows with the CTA's warps.
  for (const measure::StreamInitPoint& p : measure::stream_init_points()) {
    const double model = measure::cta_turnaround_cycles(config::load_config(p.preset), p.threads);
    rows.push_back(validation::row(
        fmt::format("{} ({}): CTA turnaround, {} threads, cycles", p.preset, p.part, p.threads),
        model, p.turnaround(),
        fmt::format("RRZE gpu-benches gpu-stream/{}: init {} GB/s at {} MHz{}", p.file, p.gbps,
                    p.mhz,
                    p.calibration ? " (the preset's CTA launch latency is set from it: a "
                                    "calibration, not a check)"
                                  : "")));
  }
  validation::print_table(
      "SM: CTA turnaround (validate_sm)",
      "Each SM holds one CTA at a time (its shared memory the largest a CTA may take); every "
      "thread computes its index, stores 8 bytes and exits. Turnaround = core cycles between "
      "two CTAs of an SM in the steady state (grids of 8 and 16 CTAs per SM). The reference "
      "is the same kernel's bandwidth on the GPU at one CTA per SM: cycles = clock x 8 B x "
      "threads x SMs / bandwidth. At these sizes the bandwidth is far below the DRAM's, so "
      "the CTA launch and retirement set it.",
      rows);

  std::vector<validation::Row> launch_rows;
  for (const measure::EmptyKernelPoint& p : measure::empty_kernel_points()) {
    const double model =
        measure::empty_kernel_cycles(config::load_config(p.preset), p.ctas, p.threads, p.mhz);
    launch_rows.push_back(validation::row(
        fmt::format("{}: empty kernel, {} CTAs x {} threads, {:.0f} MHz, cycles", p.preset, p.ctas,
                    p.threads, p.mhz),
        model, p.cycles,
        fmt::format("H200, kernels/probes/launch_window.cu under Nsight Compute (clock control "
                    "{}), mean of {}, kernels/ubench/hw_h200.csv{}",
                    p.clock_control, p.samples,
                    p.calibration ? " (with the other clock's row, sets the preset's "
                                    "grid_launch_cycles and grid_launch_ns: a calibration)"
                                  : "")));
  }
  validation::print_table(
      "GPU: grid launch, empty kernels (validate_sm)",
      "Every warp only exits. Cycles = Nsight Compute's gpc__cycles_elapsed.avg, the window "
      "the silicon regression compares against; the model counts the grid's front-end time "
      "(sm.grid_launch_cycles, sm.grid_launch_ns), the CTA launch and the exits, simulated "
      "at the clock measured (SM and L2).",
      launch_rows);
  return 0;
}
