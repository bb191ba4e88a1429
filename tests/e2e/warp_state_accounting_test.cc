// The incremental warp-state accounting (sim/sm_warp_states.cc) against recomputing
// every warp's state twice per tick: the checked mode compares each cached state
// with a full recomputation at every tick (and throws on a difference), and every
// stat of every kernel must equal the full mode's.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "configs/config_loader.h"
#include "e2e_fixtures.h"
#include "sim/gpu.h"
#include "tests/support/chase_traces.h"
#include "traces/text_trace.h"

namespace sassim::e2e {
namespace {

struct Outcome {
  std::vector<std::uint64_t> cycles;
  std::vector<sim::KernelStats> stats;
};

Outcome run(const config::GpuConfig& config, traces::Workload& workload,
            sim::WarpStateAccounting mode) {
  sim::Gpu gpu(config);
  gpu.set_warp_state_accounting(mode);
  Outcome r;
  for (sim::KernelResult& k : gpu.run(workload)) {
    r.cycles.push_back(k.cycles);
    r.stats.push_back(std::move(k.stats));
  }
  return r;
}

// Same cycles and the same value of every stat, kernel by kernel.
void expect_same(const Outcome& full, const Outcome& checked) {
  ASSERT_EQ(full.cycles, checked.cycles);
  for (std::size_t k = 0; k < full.stats.size(); ++k) {
    const std::vector<std::string>& names = full.stats[k].schema()->names();
    ASSERT_EQ(names, checked.stats[k].schema()->names()) << "kernel " << k;
    const std::vector<double> a = full.stats[k].dense();
    const std::vector<double> b = checked.stats[k].dense();
    std::size_t warp_cycle_stats = 0;
    for (std::size_t i = 0; i < names.size(); ++i) {
      EXPECT_EQ(a[i], b[i]) << "kernel " << k << ": " << names[i];
      if (names[i].find(".warp_cycles.") != std::string::npos && a[i] != 0) ++warp_cycle_stats;
    }
    EXPECT_GT(warp_cycle_stats, 0U);
  }
}

class ReferenceTraceAccounting : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceTraceAccounting, IncrementalMatchesFullRecomputation) {
  for (const ReferenceTrace& t : reference_traces()) {
    if (t.name != GetParam()) continue;
    const config::GpuConfig config = config::load_config(t.preset);
    auto full_workload = traces::open_accelsim_workload(repo_path(t.path));
    auto checked_workload = traces::open_accelsim_workload(repo_path(t.path));
    expect_same(run(config, *full_workload, sim::WarpStateAccounting::kFull),
                run(config, *checked_workload, sim::WarpStateAccounting::kChecked));
    return;
  }
  FAIL() << "no reference trace " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(AllReferenceTraces, ReferenceTraceAccounting,
                         ::testing::Values("gtx1080_vectoradd", "gtx1080_matrixmul",
                                           "turing_vecadd", "v100_bfs", "a100_flashinfer_gemm",
                                           "a100_flashinfer_prefill", "a100_flashinfer_decode"),
                         [](const auto& param_info) { return param_info.param; });

std::unique_ptr<traces::Workload> stream_workload(std::uint32_t ctas, std::uint32_t warps) {
  std::vector<std::unique_ptr<traces::KernelTrace>> kernels;
  kernels.push_back(traces::kernel_from_text(
      measure::stream_trace(ctas, warps, 24, 0x40000000, 80, 1), "stream"));
  return traces::workload_from_kernels(std::move(kernels));
}

// 32 warps per SM streaming from DRAM: the memory pipe's address stage fills and
// drains (lg_throttle) and completions arrive in most cycles.
TEST(WarpStateAccounting, DramStreamMatchesFullRecomputation) {
  const config::GpuConfig config = config::load_config("a100");
  auto full_workload = stream_workload(16, 32);
  auto checked_workload = stream_workload(16, 32);
  const Outcome full = run(config, *full_workload, sim::WarpStateAccounting::kFull);
  expect_same(full, run(config, *checked_workload, sim::WarpStateAccounting::kChecked));
  EXPECT_GT(full.stats[0].sum("gpu.sm[", ".warp_cycles.lg_throttle"), 0.0);
  EXPECT_GT(full.stats[0].sum("gpu.sm[", ".warp_cycles.long_scoreboard"), 0.0);
}

}  // namespace
}  // namespace sassim::e2e
