// workload.txt (traces/workload_info.h): written and read back from a folder, its
// kernelslist.g or a kernel file; every malformed line an error naming the file and line.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "ground/error.h"
#include "tests/support/scratch_dir.h"
#include "traces/workload_info.h"

namespace sassim::traces {
namespace {

const WorkloadInfo kPrefill{.workload = "dense-layer",
                            .phase = "prefill",
                            .batch = 2,
                            .context = 128,
                            .tokens = 256,
                            .model_layers = 32};

TEST(WorkloadInfo, WrittenAndReadBack) {
  test_support::ScratchDir dir("workload_info_round_trip");
  EXPECT_FALSE(read_workload_info(dir.path()).has_value());
  write_workload_info(dir.path(), kPrefill);
  for (const auto& trace :
       {dir.path(), dir.path() / "kernelslist.g", dir.path() / "kernel-3.traceg.zst"}) {
    const std::optional<WorkloadInfo> info = read_workload_info(trace);
    ASSERT_TRUE(info.has_value()) << trace;
    EXPECT_EQ(info->workload, "dense-layer");
    EXPECT_EQ(info->phase, "prefill");
    EXPECT_EQ(info->batch, 2U);
    EXPECT_EQ(info->context, 128U);
    EXPECT_EQ(info->tokens, 256U);
    EXPECT_EQ(info->model_layers, 32U);
  }
}

std::string error_of(const std::string& text) {
  test_support::ScratchDir dir("workload_info_errors");
  std::ofstream(dir.path() / "workload.txt") << text;
  try {
    read_workload_info(dir.path());
  } catch (const Error& e) {
    std::string m = e.what();
    const std::string prefix = (dir.path() / "workload.txt").string();
    if (m.rfind(prefix, 0) == 0) m = "F" + m.substr(prefix.size());
    return m;
  }
  return "accepted";
}

TEST(WorkloadInfo, MalformedLinesNameTheFileAndLine) {
  const std::string good =
      "workload dense-layer\nphase decode\nbatch 1\ncontext 4096\ntokens 1\nmodel_layers 32\n";
  EXPECT_EQ(error_of(good), "accepted");
  EXPECT_EQ(error_of("# a comment\n\n" + good), "accepted");
  EXPECT_EQ(error_of(good + "layers 3\n"),
            "F:7: unknown key 'layers': expected workload, phase, batch, context, tokens or "
            "model_layers");
  EXPECT_EQ(error_of(good + "batch 2\n"), "F:7: batch given twice");
  EXPECT_EQ(error_of("workload dense-layer\nphase decode\n"), "F: no batch line");
  EXPECT_EQ(error_of("batch\n"), "F:1: expected 'KEY VALUE', found 'batch'");
  EXPECT_EQ(error_of("batch 1 2\n"), "F:1: expected 'KEY VALUE', found 'batch 1 2'");
  std::string bad = good;
  bad.replace(bad.find("4096"), 4, "4k");
  EXPECT_EQ(error_of(bad), "F:4: context '4k': expected a whole number");
  bad = good;
  bad.replace(bad.find("decode"), 6, "train");
  EXPECT_EQ(error_of(bad), "F:2: phase 'train': expected decode or prefill");
  bad = good;
  bad.replace(bad.find("tokens 1"), 8, "tokens 0");
  EXPECT_EQ(error_of(bad), "F:5: tokens 0: expected at least 1");
  bad = good;
  bad.replace(bad.find("layers 32"), 9, "layers 0");
  EXPECT_EQ(error_of(bad), "F:6: model_layers 0: expected at least 1");
}

}  // namespace
}  // namespace sassim::traces
