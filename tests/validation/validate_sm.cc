// SM-level validation: the CTA turnaround of each preset (one CTA per SM, each thread
// storing 8 bytes once, tests/support/cta_measurements.h) against the RRZE gpu-benches
// "gpu-stream" init kernel measured at one CTA per SM
// (../shared/reference-traces/gpu-benches-rrze/gpu-stream). Prints a markdown section.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "tests/support/cta_measurements.h"
#include "tests/validation/validation_table.h"

namespace {

struct Point {
  const char* preset;
  const char* part;  // the measured GPU
  const char* file;  // gpu-stream result file
  std::uint32_t sms;
  double mhz;  // clock under load (the same repository's gpu-latency samples)
  std::uint32_t threads;
  double gbps;  // init kernel, one CTA per SM
  bool calibration;
};

}  // namespace

int main() {
  using namespace sassim;
  // The block-16 points set each preset's cta_launch_latency_cycles (a calibration);
  // the larger blocks check how the turnaround grows with the CTA's warps.
  const std::vector<Point> points = {
      {"v100", "V100", "v100.txt", 80, 1380, 16, 39, true},
      {"v100", "V100", "v100.txt", 80, 1380, 160, 369, false},
      {"a100", "A100 40 GB", "a100_40.txt", 108, 1410, 16, 54, true},
      {"a100", "A100 40 GB", "a100_40.txt", 108, 1410, 256, 802, false},
      {"a100", "A100 40 GB", "a100_40.txt", 108, 1410, 512, 1501, false},
      {"h100", "GH200", "gh200.txt", 132, 1980, 16, 77, true},
      {"h100", "GH200", "gh200.txt", 132, 1980, 160, 731, false},
  };
  std::vector<validation::Row> rows;
  for (const Point& p : points) {
    const double model = measure::cta_turnaround_cycles(config::load_config(p.preset), p.threads);
    const double reference = measure::turnaround_from_bandwidth(p.gbps, p.sms, p.threads, p.mhz);
    rows.push_back(validation::row(
        fmt::format("{} ({}): CTA turnaround, {} threads, cycles", p.preset, p.part, p.threads),
        model, reference,
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
