// `sassim workload dense-layer` executed (traces/emu/workload/layer_capture.h) on a small
// layer: every launch matches its CPU reference on the inputs it read, the folder lists
// the launches in order as kernel-1..N, and each launch's global accesses fall exactly in
// the tensors it is bound to, so a tensor written by one launch is read at the same
// addresses by the next.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "configs/config_loader.h"
#include "ground/error.h"
#include "sim/gpu.h"
#include "tests/emu/trace_tensors.h"
#include "tests/support/scratch_dir.h"
#include "traces/accelsim_reader.h"
#include "traces/emu/workload/layer_capture.h"

namespace sassim::emu::workload {
namespace {

namespace fs = std::filesystem;

// hidden 256, 4 query heads on 1 KV head, ffn 256; 2 sequences of 600 and 451 tokens
// (decode_attention's generator), so the attention has 2 splits and the combine work.
LayerOptions small(int sm, GemmChoice gemm = GemmChoice::kAuto) {
  return {.batch = 2,
          .context = 600,
          .hidden = 256,
          .heads = 4,
          .kv_heads = 1,
          .ffn = 256,
          .sm_version = sm,
          .gemm = gemm};
}

// The architecture, and whether the projections take the tiled GEMM or skinny_gemm.
class LayerCapture : public ::testing::TestWithParam<std::tuple<int, bool>> {};

TEST_P(LayerCapture, ChecksPassAndTensorsAreShared) {
  const auto [sm, tiled] = GetParam();
  const LayerPlan plan =
      plan_dense_layer(small(sm, tiled ? GemmChoice::kTiled : GemmChoice::kSkinny));
  const std::string gemm = sm >= 90 ? "bf16_gemm_wgmma" : "hgemm_mma";
  EXPECT_EQ(plan.launches.at(1).kernel, tiled ? gemm : "skinny_gemm_m2");
  test_support::ScratchDir dir("layer_capture_" + std::to_string(sm) + (tiled ? "t" : "s"));
  LayerCaptureOptions options;
  options.trace_folder = dir.path() / "layer";
  options.compression = traces::Compression::kNone;
  options.listings = fs::path(SASSIM_SOURCE_DIR) / "kernels/sass";
  options.check = true;
  std::vector<LaunchReport> reports;
  capture_layer(plan, options, reports);
  ASSERT_EQ(reports.size(), 18U);
  for (size_t i = 0; i < reports.size(); ++i) {
    SCOPED_TRACE(plan.launches[i].step);
    EXPECT_NE(reports[i].check.find(" values "), std::string::npos) << reports[i].check;
    EXPECT_EQ(reports[i].result.trace_lines, reports[i].result.warp_insts);
  }
  // kernelslist.g: kernel-1 .. kernel-18 in order, nothing else.
  std::ifstream list(options.trace_folder / "kernelslist.g");
  std::vector<std::string> lines;
  for (std::string l; std::getline(list, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 18U);
  for (size_t i = 0; i < lines.size(); ++i)
    EXPECT_EQ(lines[i], "kernel-" + std::to_string(i + 1) + ".traceg");

  // Each kernel file's header names its place in the list and stream 0.
  for (const int id : {1, 5, 18}) {
    std::ifstream file(options.trace_folder / ("kernel-" + std::to_string(id) + ".traceg"));
    std::ostringstream header;
    header << file.rdbuf();
    EXPECT_NE(header.str().find("-kernel id = " + std::to_string(id) + "\n"), std::string::npos);
    EXPECT_NE(header.str().find("-cuda stream id = 0\n"), std::string::npos);
  }

  // Each launch touches exactly the tensors it is bound to, at their addresses.
  expect_launches_touch_their_tensors(plan, options.trace_folder);

  // The reader and the timing model take the folder as 18 launches on stream 0.
  auto workload = traces::open_accelsim_workload(options.trace_folder);
  sim::Gpu gpu(config::load_config(sm >= 90 ? "h200" : "a100", {}));
  const auto results = gpu.run(*workload);
  ASSERT_EQ(results.size(), 18U);
  for (size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].warp_insts, reports[i].result.warp_insts) << plan.launches[i].step;
  }
}

INSTANTIATE_TEST_SUITE_P(ArchsAndGemms, LayerCapture,
                         ::testing::Combine(::testing::Values(80, 90), ::testing::Bool()));

// Captures `plan` into `folder` with every launch checked; each launch's check must have
// compared values.
std::vector<LaunchReport> capture_checked(const LayerPlan& plan, const fs::path& folder) {
  LayerCaptureOptions options;
  options.trace_folder = folder;
  options.listings = fs::path(SASSIM_SOURCE_DIR) / "kernels/sass";
  options.check = true;
  std::vector<LaunchReport> reports;
  capture_layer(plan, options, reports);
  EXPECT_EQ(reports.size(), plan.launches.size());
  for (size_t i = 0; i < reports.size(); ++i) {
    SCOPED_TRACE(plan.launches[i].step);
    EXPECT_NE(reports[i].check.find(" values "), std::string::npos) << reports[i].check;
  }
  return reports;
}

// --draft: the verification step of 2 sequences x 4 rows (skinny_gemm_m8) and of 2 x 5
// rows (the tiled GEMM), every launch checked, the attention spec_verify_attention and the
// combine over its rows, and the folder's workload.txt counting the verified rows.
TEST(LayerCaptureDraft, VerificationStepChecksPass) {
  for (const auto& [sm, draft] : {std::pair{90, 3U}, std::pair{80, 4U}}) {
    LayerOptions o = small(sm);
    o.draft = draft;
    const LayerPlan plan = plan_dense_layer(o);
    SCOPED_TRACE(std::to_string(sm) + " draft " + std::to_string(draft));
    EXPECT_EQ(plan.launches.at(7).kernel, "spec_verify_attention");
    test_support::ScratchDir dir("layer_capture_draft_" + std::to_string(sm));
    const std::vector<LaunchReport> reports = capture_checked(plan, dir.path() / "layer");
    ASSERT_EQ(reports.size(), 18U);
    // 2 splits x 1 KV head x 2 (draft + 1) rows.
    EXPECT_EQ(reports.at(7).result.ctas, 2U * 2 * (draft + 1));
    std::ifstream info(dir.path() / "layer" / "workload.txt");
    std::stringstream text;
    text << info.rdbuf();
    EXPECT_NE(text.str().find("tokens " + std::to_string(2 * (draft + 1)) + "\n"),
              std::string::npos)
        << text.str();
  }
}

// --attention tc: the decode step's attention is decode_attention_tc, checked against its
// reference in the layer, and the combine after it takes its partials.
TEST(LayerCaptureTensorCoreAttention, ChecksPass) {
  for (const int sm : {80, 90}) {
    LayerOptions o = small(sm);
    o.attention = AttentionChoice::kTensorCores;
    const LayerPlan plan = plan_dense_layer(o);
    SCOPED_TRACE(sm);
    EXPECT_EQ(plan.launches.at(7).kernel, "decode_attention_tc");
    EXPECT_EQ(plan.launches.at(8).kernel, "decode_attention_combine");
    test_support::ScratchDir dir("layer_capture_tc_" + std::to_string(sm));
    const std::vector<LaunchReport> reports = capture_checked(plan, dir.path() / "layer");
    ASSERT_EQ(reports.size(), 18U);
    // 2 splits x 1 KV head x 2 sequences, as decode_attention's.
    EXPECT_EQ(reports.at(7).result.ctas, 4U);
  }
}

// A listing folder without one of the layer's kernels is an error naming the step, before
// anything runs.
TEST(LayerCaptureErrors, MissingListingNamesTheStep) {
  test_support::ScratchDir dir("layer_capture_missing");
  fs::create_directories(dir.path() / "sm_90");
  LayerCaptureOptions options;
  options.listings = dir.path();
  std::vector<LaunchReport> reports;
  try {
    capture_layer(plan_dense_layer(small(90)), options, reports);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("attn_norm (rmsnorm): no listing"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(reports.empty());
}

}  // namespace
}  // namespace sassim::emu::workload
