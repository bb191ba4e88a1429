// Zero-load latencies that come out of the model (not typed in as end-to-end numbers):
// pointer chases of one thread (on SM 0) through L1, shared memory, L2 and DRAM on the
// presets, against published microbenchmark figures: L1 and shared from Luo et al.,
// IPDPS 2024, Table IV; L2 hits and DRAM misses in the near and the far L2 partition
// from the extended version, arXiv 2501.12084 (A100 and H800;
// ../shared/notes/reference-data.md). The measurements are in
// tests/support/memory_measurements.h.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "configs/config_loader.h"
#include "configs/derived.h"
#include "tests/support/memory_measurements.h"

namespace sassim::e2e {
namespace {

struct Expected {
  std::string preset;
  double l1, shared, l2_near, l2_far, dram_near, dram_far;
};

class ZeroLoadLatency : public ::testing::TestWithParam<Expected> {};

TEST_P(ZeroLoadLatency, WithinTenPercentOfMeasurements) {
  const Expected& e = GetParam();
  const measure::ZeroLoadLatencies m = measure::zero_load_latencies(config::load_config(e.preset));
  std::printf(
      "%s: L1 %.1f (%.1f), shared %.1f (%.1f), L2 near %.1f (%.1f), far %.1f (%.1f), DRAM near "
      "%.1f (%.1f), far %.1f (%.1f) cycles\n",
      e.preset.c_str(), m.l1, e.l1, m.shared, e.shared, m.l2_near, e.l2_near, m.l2_far, e.l2_far,
      m.dram_near, e.dram_near, m.dram_far, e.dram_far);
  EXPECT_NEAR(m.l1, e.l1, 0.1 * e.l1);
  EXPECT_NEAR(m.shared, e.shared, 0.1 * e.shared);
  EXPECT_NEAR(m.l2_near, e.l2_near, 0.1 * e.l2_near);
  // The derived L2 hit (the instruction fetch's L1i miss) is what the model measures.
  EXPECT_NEAR(config::l2_hit_latency_cycles(config::load_config(e.preset)), m.l2_near, 1.0);
  EXPECT_NEAR(m.l2_far, e.l2_far, 0.1 * e.l2_far);
  EXPECT_NEAR(m.dram_near, e.dram_near, 0.1 * e.dram_near);
  EXPECT_NEAR(m.dram_far, e.dram_far, 0.1 * e.dram_far);
  // Lines hashed over every slice fall half near, half far; on a second pass the far
  // half is read from its copies near when the preset replicates far reads.
  const bool copies = config::load_config(e.preset).interconnect().replicate_far_reads();
  EXPECT_EQ(copies, e.preset == "h100");
  EXPECT_NEAR(m.l2_mixed, copies ? m.l2_near : (m.l2_near + m.l2_far) / 2, 0.05 * m.l2_mixed);
}

INSTANTIATE_TEST_SUITE_P(Presets, ZeroLoadLatency,
                         ::testing::Values(Expected{"a100", 37.9, 29.0, 208, 357, 475, 623},
                                           Expected{"h100", 40.7, 29.0, 258, 414, 556, 744}),
                         [](const auto& param_info) { return param_info.param.preset; });

// One warp's shared load with n lanes per bank takes n bank passes: n - 1 cycles more
// than a conflict-free one (memsys/README.md), whatever the preset.
TEST(SharedBankConflicts, EachExtraWayCostsOnePass) {
  const config::GpuConfig c = config::load_config("a100");
  const double free = measure::shared_conflict_latency(c, 1);
  EXPECT_NEAR(free, 29.0, 0.1 * 29.0);
  for (std::uint32_t n : {2u, 4u, 8u, 16u, 32u}) {
    EXPECT_DOUBLE_EQ(measure::shared_conflict_latency(c, n), free + (n - 1)) << n << "-way";
  }
}

}  // namespace
}  // namespace sassim::e2e
