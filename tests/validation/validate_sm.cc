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
  return 0;
}
