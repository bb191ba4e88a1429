// `sassim workload moe-layer`'s plan (traces/emu/workload/layer_plan.h, moe_plan.cc): the
// attention half is the dense layer's, then the MoE launches in order with Mixtral 8x7B's
// shapes and the bindings that chain them, the option errors; and a small layer executed
// with the check on sm_80 and sm_90.
#include <gtest/gtest.h>

#include <set>
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
#include "traces/emu/workload/layer_plan.h"

namespace sassim::emu::workload {
namespace {

namespace fs = std::filesystem;

const PlannedLaunch& step(const LayerPlan& plan, const std::string& name) {
  for (const PlannedLaunch& l : plan.launches)
    if (l.step == name) return l;
  throw Error("no step " + name);
}

// The tensor that argument `arg` of step `name` is bound to.
std::string bound(const LayerPlan& plan, const std::string& name, std::string_view arg) {
  const PlannedLaunch& l = step(plan, name);
  const auto args = l.launch.arguments();
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].name == arg) return plan.tensors.at(static_cast<size_t>(l.bindings[i].tensor)).name;
  }
  throw Error("no argument " + std::string(arg));
}

uint64_t bytes(const LayerPlan& plan, const char* name) {
  return plan.tensors.at(static_cast<size_t>(plan.tensor(name))).bytes;
}

TEST(MoePlan, TheAttentionHalfIsTheDenseLayers) {
  for (const Phase phase : {Phase::kDecode, Phase::kPrefill}) {
    const LayerOptions o{.phase = phase, .context = 256, .gemm = GemmChoice::kTiled};
    const LayerPlan dense = plan_dense_layer(o), moe = plan_moe_layer(o);
    EXPECT_EQ(dense.workload, kDenseLayer);
    EXPECT_EQ(moe.workload, kMoeLayer);
    const size_t half = phase == Phase::kDecode ? 12 : 10;  // launches up to attn_residual
    ASSERT_EQ(moe.launches.at(half - 1).step, "attn_residual");
    for (size_t i = 0; i < half; ++i) {
      EXPECT_EQ(moe.launches[i].step, dense.launches[i].step);
      EXPECT_EQ(moe.launches[i].kernel, dense.launches[i].kernel);
      EXPECT_EQ(moe.launches[i].values, dense.launches[i].values);
    }
    const size_t tensors = static_cast<size_t>(dense.tensor("h")) + 1;
    ASSERT_EQ(moe.tensor("h"), dense.tensor("h"));
    for (size_t i = 0; i < tensors; ++i) {
      EXPECT_EQ(moe.tensors[i].name, dense.tensors[i].name);
      EXPECT_EQ(moe.tensors[i].bytes, dense.tensors[i].bytes);
    }
  }
}

TEST(MoePlan, MixtralLaunchesInStreamOrder) {
  const LayerPlan plan = plan_moe_layer({});
  std::vector<std::string> steps, kernels;
  for (size_t i = 12; i < plan.launches.size(); ++i) {
    steps.push_back(plan.launches[i].step);
    kernels.push_back(plan.launches[i].kernel);
  }
  EXPECT_EQ(steps, (std::vector<std::string>{"ffn_norm", "router", "topk_softmax", "align",
                                             "permute", "experts_gate_up", "experts_cast",
                                             "experts_swiglu", "experts_down", "unpermute"}));
  EXPECT_EQ(kernels,
            (std::vector<std::string>{"rmsnorm", "skinny_gemm_m1", "moe_topk_softmax", "moe_align",
                                      "moe_permute", "moe_grouped_gemm", "cast_bf16", "swiglu",
                                      "moe_grouped_gemm", "moe_unpermute"}));
  // The router's 8 outputs padded to skinny_gemm's 16 columns; the top-k reads 8 of each 16.
  EXPECT_EQ(step(plan, "router").values, (std::vector<std::string>{"16", "4096"}));
  EXPECT_EQ(step(plan, "topk_softmax").values, (std::vector<std::string>{"1", "8", "2", "16"}));
  // One token, two pairs: 2 + 8 x 63 rows padded to 8 tiles of 64; (2 x 14336) / 64 columns.
  const PlannedLaunch& gate_up = step(plan, "experts_gate_up");
  EXPECT_EQ(gate_up.values, (std::vector<std::string>{"1", "8", "2", "28672", "4096"}));
  EXPECT_EQ(gate_up.launch.grid.x, 448U);
  EXPECT_EQ(gate_up.launch.grid.y, 8U);
  EXPECT_EQ(step(plan, "experts_down").values,
            (std::vector<std::string>{"1", "8", "2", "4096", "14336"}));
  EXPECT_EQ(step(plan, "experts_swiglu").values, (std::vector<std::string>{"512", "14336"}));
  EXPECT_EQ(plan.launches.size(), 22U);
  // Prefill: the tiled GEMM takes the router, its N padded to 128.
  const LayerPlan prefill = plan_moe_layer({.phase = Phase::kPrefill, .context = 128});
  EXPECT_EQ(step(prefill, "router").kernel, "bf16_gemm_wgmma");
  EXPECT_EQ(step(prefill, "router").values, (std::vector<std::string>{"128", "128", "4096"}));
  EXPECT_EQ(step(prefill, "attention").kernel, "prefill_attention");
  EXPECT_EQ(prefill.launches.size(), 20U);
}

TEST(MoePlan, MixtralTensorSizes) {
  const LayerPlan plan = plan_moe_layer({});
  EXPECT_EQ(bytes(plan, "router.weight"), 16ULL * 4096 * 2);
  EXPECT_EQ(bytes(plan, "router.out"), 16U * 4);
  EXPECT_EQ(bytes(plan, "experts.gate_up.weight"), 8ULL * 28672 * 4096 * 2);
  EXPECT_EQ(bytes(plan, "experts.down.weight"), 8ULL * 4096 * 14336 * 2);
  EXPECT_EQ(bytes(plan, "topk.ids"), 2U * 4);
  EXPECT_EQ(bytes(plan, "moe.sorted_ids"), 512U * 4);
  EXPECT_EQ(bytes(plan, "moe.tile_experts"), 8U * 4);
  EXPECT_EQ(bytes(plan, "experts.in"), 512U * 4096 * 2);
  EXPECT_EQ(bytes(plan, "experts.gate_up.out"), 512ULL * 28672 * 4);
  EXPECT_EQ(bytes(plan, "experts.down.out"), 512ULL * 4096 * 4);
  EXPECT_EQ(bytes(plan, "out"), 4096U * 2);
  // 64 tokens of top-1 among 4 experts: 64 + 4 x 63 rows in 5 tiles.
  const LayerPlan small = plan_moe_layer({.batch = 64, .experts = 4, .top_k = 1});
  EXPECT_EQ(bytes(small, "moe.sorted_ids"), 320U * 4);
  EXPECT_EQ(bytes(small, "topk.weights"), 64U * 4);
}

TEST(MoePlan, LaunchesChainThroughTheLayersTensors) {
  const LayerPlan plan = plan_moe_layer({.gemm = GemmChoice::kTiled});
  EXPECT_EQ(bound(plan, "ffn_norm", "x"), "h");
  EXPECT_EQ(bound(plan, "router", "a_map"), "ffn_norm.out");
  EXPECT_EQ(bound(plan, "router", "c"), "router.out");
  EXPECT_EQ(bound(plan, "topk_softmax", "logits"), "router.out");
  EXPECT_EQ(bound(plan, "align", "ids"), "topk.ids");
  EXPECT_EQ(bound(plan, "permute", "x"), "ffn_norm.out");
  EXPECT_EQ(bound(plan, "permute", "sorted_ids"), "moe.sorted_ids");
  EXPECT_EQ(bound(plan, "permute", "rows"), "experts.in");
  EXPECT_EQ(bound(plan, "experts_gate_up", "a"), "experts.in");
  EXPECT_EQ(bound(plan, "experts_gate_up", "w"), "experts.gate_up.weight");
  EXPECT_EQ(bound(plan, "experts_gate_up", "tile_experts"), "moe.tile_experts");
  EXPECT_EQ(bound(plan, "experts_gate_up", "total"), "moe.total_rows");
  EXPECT_EQ(bound(plan, "experts_swiglu", "gate_up"), "experts.gate_up");
  EXPECT_EQ(bound(plan, "experts_down", "a"), "experts.down.in");
  EXPECT_EQ(bound(plan, "experts_down", "c"), "experts.down.out");
  EXPECT_EQ(bound(plan, "unpermute", "c"), "experts.down.out");
  EXPECT_EQ(bound(plan, "unpermute", "pair_rows"), "moe.pair_rows");
  EXPECT_EQ(bound(plan, "unpermute", "weights"), "topk.weights");
  EXPECT_EQ(bound(plan, "unpermute", "residual"), "h");
  EXPECT_EQ(bound(plan, "unpermute", "out"), "out");
  std::set<int> used;
  for (const PlannedLaunch& l : plan.launches)
    for (const Binding& b : l.bindings)
      if (b.tensor >= 0) used.insert(b.tensor);
  EXPECT_EQ(used.size(), plan.tensors.size());
}

void expect_error(const LayerOptions& o, const std::string& text) {
  try {
    plan_moe_layer(o);
    ADD_FAILURE() << "no error; expected one with '" << text << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TEST(MoePlan, BadOptionsNameTheOption) {
  expect_error({.experts = 0}, "--experts 0: expected 1 to 64 experts");
  expect_error({.experts = 65}, "--experts 65: expected 1 to 64 experts");
  expect_error({.top_k = 0}, "--top-k 0 with --experts 8: expected 1 to 8 experts per token");
  expect_error({.experts = 4, .top_k = 5}, "--top-k 5 with --experts 4: expected 1 to 4");
  expect_error({.ffn = 131072, .experts = 16},
               "GiB, more than the 32 GiB a capture holds in memory: reduce --batch, --context, "
               "--hidden, --ffn or --experts");
  expect_error({.heads = 30}, "--heads 30 is not a multiple of --kv-heads 8");  // the attention's
}

// hidden 256, 4 query heads on 1 KV head, 4 experts, top-2; ffn 128 per expert (the tiled
// GEMM for the projections and the router) or 256 (a decode step takes skinny_gemm_m2, the
// router's N padded to 16).
LayerOptions small(int sm, Phase phase, uint32_t ffn) {
  return {.phase = phase,
          .batch = 2,
          .context = phase == Phase::kDecode ? 300U : 64U,
          .hidden = 256,
          .heads = 4,
          .kv_heads = 1,
          .ffn = ffn,
          .sm_version = sm,
          .experts = 4,
          .top_k = 2};
}

class MoeLayerCapture : public ::testing::TestWithParam<int> {};

TEST_P(MoeLayerCapture, EveryLaunchChecksAndReplays) {
  const int sm = GetParam();
  const std::string tiled = sm >= 90 ? "bf16_gemm_wgmma" : "hgemm_mma";
  for (const auto& [phase, ffn, router] :
       {std::tuple{Phase::kDecode, 128U, tiled},
        std::tuple{Phase::kDecode, 256U, std::string("skinny_gemm_m2")},
        std::tuple{Phase::kPrefill, 128U, tiled}}) {
    const LayerPlan plan = plan_moe_layer(small(sm, phase, ffn));
    SCOPED_TRACE((phase == Phase::kDecode ? "decode, ffn " : "prefill, ffn ") +
                 std::to_string(ffn));
    EXPECT_EQ(step(plan, "router").kernel, router);
    test_support::ScratchDir dir("moe_layer_" + std::to_string(sm));
    LayerCaptureOptions options;
    options.trace_folder = dir.path() / "layer";
    options.compression = traces::Compression::kNone;
    options.listings = fs::path(SASSIM_SOURCE_DIR) / "kernels/sass";
    options.check = true;
    std::vector<LaunchReport> reports;
    capture_layer(plan, options, reports);
    ASSERT_EQ(reports.size(), plan.launches.size());
    for (size_t i = 0; i < reports.size(); ++i) {
      SCOPED_TRACE(plan.launches[i].step);
      EXPECT_NE(reports[i].check.find(" values "), std::string::npos) << reports[i].check;
    }
    // Each launch touches exactly the tensors it is bound to (the grouped GEMMs' skipped
    // tiles read nothing but the total).
    expect_launches_touch_their_tensors(plan, options.trace_folder);
    auto workload = traces::open_accelsim_workload(options.trace_folder);
    sim::Gpu gpu(config::load_config(sm >= 90 ? "h200" : "a100", {}));
    const auto results = gpu.run(*workload);
    ASSERT_EQ(results.size(), plan.launches.size());
    for (size_t i = 0; i < results.size(); ++i)
      EXPECT_EQ(results[i].warp_insts, reports[i].result.warp_insts) << plan.launches[i].step;
  }
}

INSTANTIATE_TEST_SUITE_P(Archs, MoeLayerCapture, ::testing::Values(80, 90));

}  // namespace
}  // namespace sassim::emu::workload
