// TMA validation: the zero-load latency of a TMA load of L2-resident data on the h100
// preset against the H800 measurement (../shared/notes/reference-data.md). Prints a
// markdown section.
#include <vector>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "tests/support/tma_measurements.h"
#include "tests/validation/validation_table.h"

int main() {
  using namespace sassim;
  using validation::row;
  std::vector<validation::Row> rows;
  const config::GpuConfig c = config::load_config("h100");
  // The SM's address generation before the copy reaches the engine.
  const double agen = c.sm().units().memory().latency_cycles();
  const double near = measure::tma_load_latency(c, 32, false, 16);
  const double far = measure::tma_load_latency(c, 32, true, 16);
  const char* source = "HPMLL NVIDIA-Hopper-Benchmark logs, H800 TMA load, L2-resident";
  rows.push_back(row("h100: TMA load, 32 B, near partition, cycles", agen + near,
                     validation::kNoReference, "informational"));
  rows.push_back(row("h100: TMA load, 32 B, far partition, cycles", agen + far,
                     validation::kNoReference, "informational"));
  validation::Row mixed =
      row("h100: TMA load, 32 B, mean of near and far, cycles", agen + (near + far) / 2, 365,
          std::string(source) + " (the preset's setup latency is set from it: a calibration)");
  mixed.reference_high = 369;
  rows.push_back(mixed);
  validation::print_table(
      "TMA (validate_tma)",
      "One TMA load at a time on SM 0's engine, memory system under a mock SM "
      "(tests/support/tma_measurements.h), plus the preset's address-generation latency "
      "(sm.units.memory, 4 cycles): from issue to the data in shared memory. A warp "
      "waiting on the copy's mbarrier issues in the cycle the copy completes "
      "(docs/MODEL.md, tests/sim/tma_sm_test.cc), so the wake-up adds no cycles.",
      rows);
  return 0;
}
