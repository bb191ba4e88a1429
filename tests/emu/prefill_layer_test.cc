// `sassim workload dense-layer --phase prefill` (traces/emu/workload/prefill_plan.cc):
// the launches in order, Llama 3 8B's prefill sizes, the prompt positions and cache slots,
// and a small layer executed with every launch checked against its CPU reference and
// every launch's accesses inside exactly the tensors it is bound to.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "configs/config_loader.h"
#include "sim/gpu.h"
#include "tests/emu/trace_tensors.h"
#include "tests/support/scratch_dir.h"
#include "traces/accelsim_reader.h"
#include "traces/emu/workload/layer_capture.h"
#include "traces/emu/workload/layer_plan.h"

namespace sassim::emu::workload {
namespace {

namespace fs = std::filesystem;

size_t index_of(const LayerPlan& plan, const std::string& step) {
  for (size_t i = 0; i < plan.launches.size(); ++i)
    if (plan.launches[i].step == step) return i;
  ADD_FAILURE() << "no step " << step;
  return 0;
}

TEST(PrefillPlan, Llama3PromptOf2048) {
  const LayerPlan plan = plan_dense_layer({.phase = Phase::kPrefill, .context = 2048});
  std::vector<std::string> kernels;
  for (const PlannedLaunch& l : plan.launches) kernels.push_back(l.kernel);
  const std::vector<std::string> want = {
      "rmsnorm",     "bf16_gemm_wgmma", "cast_bf16",         "cast_bf16",       "cast_bf16",
      "rope",        "kv_append",       "prefill_attention", "bf16_gemm_wgmma", "residual_add",
      "rmsnorm",     "bf16_gemm_wgmma", "cast_bf16",         "swiglu",          "bf16_gemm_wgmma",
      "residual_add"};
  EXPECT_EQ(kernels, want);
  EXPECT_EQ(plan.tokens, 2048U);
  EXPECT_EQ(plan.padded_rows, 2048U);
  auto bytes = [&](const char* name) {
    return plan.tensors.at(static_cast<size_t>(plan.tensor(name))).bytes;
  };
  EXPECT_EQ(bytes("qkv_proj.out"), 2048ULL * 6144 * 4);
  EXPECT_EQ(bytes("q"), 2048ULL * 4096 * 2);
  EXPECT_EQ(bytes("k"), 2048ULL * 1024 * 2);
  // 128 pages of 16 tokens for the one prompt, 8 KV heads of 128, BF16.
  EXPECT_EQ(bytes("k_cache"), 128ULL * 8 * 16 * 128 * 2);
  EXPECT_EQ(bytes("slot_mapping"), 2048U * 8);
  // The attention: 32 query blocks x 32 heads, causal, reading the new K and V and
  // writing the output projection's input.
  const PlannedLaunch& attention = plan.launches[index_of(plan, "attention")];
  EXPECT_EQ(attention.values, (std::vector<std::string>{"1", "2048", "32", "8", "1"}));
  EXPECT_EQ(attention.launch.grid.x * attention.launch.grid.y, 32U * 32);
  EXPECT_EQ(plan.tensors[static_cast<size_t>(attention.bindings[1].tensor)].name, "k");
  EXPECT_EQ(plan.tensors[static_cast<size_t>(attention.bindings[3].tensor)].name, "o_proj.in");
  // The GEMMs' M is every prompt token: 3 x 1000 rounded up to the 128-row tile.
  const LayerPlan three =
      plan_dense_layer({.phase = Phase::kPrefill, .batch = 3, .context = 1024, .sm_version = 80});
  EXPECT_EQ(three.padded_rows, 3072U);
  EXPECT_EQ(three.launches[index_of(three, "qkv_proj")].values,
            (std::vector<std::string>{"3072", "6144", "4096"}));
  EXPECT_EQ(three.launches[index_of(three, "qkv_proj")].kernel, "hgemm_mma");
}

class PrefillLayerCapture : public ::testing::TestWithParam<int> {};

// 2 prompts of 192 tokens (3 query blocks each), 4 query heads on 2 KV heads, captured
// with every launch checked, then replayed.
void check_small_prefill(int sm, GemmChoice gemm) {
  const LayerPlan plan = plan_dense_layer({.phase = Phase::kPrefill,
                                           .batch = 2,
                                           .context = 192,
                                           .hidden = 256,
                                           .heads = 4,
                                           .kv_heads = 2,
                                           .ffn = 256,
                                           .sm_version = sm,
                                           .gemm = gemm});
  test_support::ScratchDir dir("prefill_layer_" + std::to_string(sm) +
                               (gemm == GemmChoice::kWarpSpecialised ? "_ws" : ""));
  LayerCaptureOptions options;
  options.trace_folder = dir.path() / "layer";
  options.compression = traces::Compression::kNone;
  options.listings = fs::path(SASSIM_SOURCE_DIR) / "kernels/sass";
  options.check = true;
  std::vector<LaunchReport> reports;
  capture_layer(plan, options, reports);
  ASSERT_EQ(reports.size(), 16U);
  for (size_t i = 0; i < reports.size(); ++i) {
    SCOPED_TRACE(plan.launches[i].step);
    EXPECT_NE(reports[i].check.find(" values "), std::string::npos) << reports[i].check;
  }
  expect_launches_touch_their_tensors(plan, options.trace_folder);
  // The captured folder replays as one workload, instruction for instruction.
  auto workload = traces::open_accelsim_workload(options.trace_folder);
  sim::Gpu gpu(config::load_config(sm >= 90 ? "h200" : "a100", {}));
  const auto results = gpu.run(*workload);
  ASSERT_EQ(results.size(), 16U);
  for (size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].warp_insts, reports[i].result.warp_insts) << plan.launches[i].step;
  }
}

TEST_P(PrefillLayerCapture, ChecksPassAndTensorsAreShared) {
  check_small_prefill(GetParam(), GemmChoice::kAuto);
}

INSTANTIATE_TEST_SUITE_P(Archs, PrefillLayerCapture, ::testing::Values(80, 90));

TEST(PrefillLayerCaptureWs, TheWarpSpecialisedGemmChecksAndReplays) {
  // bf16_gemm_ws on the 384 token rows padded to 512, in clusters of two CTAs.
  check_small_prefill(90, GemmChoice::kWarpSpecialised);
}

}  // namespace
}  // namespace sassim::emu::workload
