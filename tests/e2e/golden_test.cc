// Golden runs: the exact cycles of small real traces on their presets. A change that
// moves them must update tests/data/golden/ on purpose: run the test with
// SASSIM_UPDATE_GOLDEN=1 and commit the new files with the reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "e2e_fixtures.h"

namespace sassim::e2e {
namespace {

std::string render(const std::vector<sim::KernelResult>& results) {
  std::string out = "# kernel_id cycles warp_insts l1_sector_hits l2_sector_hits dram_bytes\n";
  for (const auto& r : results) {
    out += fmt::format("{} {} {} {} {} {}\n", r.info.id, r.cycles, r.warp_insts,
                       r.stats.sum("gpu.sm[", ".l1.sector_hits"),
                       r.stats.sum("gpu.l2.slice[", ".sector_hits"), r.dram_bytes);
  }
  return out;
}

class GoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenTest, CyclesMatchTheCommittedGolden) {
  const ReferenceTrace* trace = nullptr;
  for (const auto& t : reference_traces()) {
    if (t.name == GetParam()) trace = &t;
  }
  ASSERT_NE(trace, nullptr);
  const std::string actual = render(replay(*trace));
  const auto file = repo_path("tests/data/golden/" + trace->name + ".txt");
  if (const char* update = std::getenv("SASSIM_UPDATE_GOLDEN");
      update != nullptr && *update == '1') {
    std::ofstream(file) << actual;
  }
  std::ifstream in(file);
  ASSERT_TRUE(in) << "missing golden file " << file << " (run with SASSIM_UPDATE_GOLDEN=1)";
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(actual, expected.str()) << "golden " << file;
}

INSTANTIATE_TEST_SUITE_P(SmallTraces, GoldenTest,
                         ::testing::Values("gtx1080_vectoradd", "gtx1080_matrixmul",
                                           "a100_flashinfer_gemm", "v100_bfs"),
                         [](const auto& param_info) { return param_info.param; });

}  // namespace
}  // namespace sassim::e2e
