// `sassim workload dense-layer`'s plan (traces/emu/workload/layer_plan.h): the launches in
// order, every tensor's exact size for Llama 3 8B's layer, the bindings that make one
// launch read what another wrote, and the option errors.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "ground/error.h"
#include "kernels/skinny_gemm.h"
#include "traces/emu/state.h"
#include "traces/emu/workload/layer_capture.h"
#include "traces/emu/workload/layer_plan.h"

namespace sassim::emu::workload {
namespace {

uint32_t skinny_gemm_rows(const char* kernel) {
  return kernels::skinny_gemm::rows_of(kernel);
}

const PlannedLaunch& step(const LayerPlan& plan, const std::string& name) {
  for (const PlannedLaunch& l : plan.launches)
    if (l.step == name) return l;
  throw Error("no step " + name);
}

// The tensor argument `arg` (by name) of step `name` is bound to, and the offset.
std::pair<std::string, uint64_t> bound(const LayerPlan& plan, const std::string& name,
                                       std::string_view arg) {
  const PlannedLaunch& l = step(plan, name);
  const auto args = l.launch.arguments();
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].name == arg) {
      const Binding& b = l.bindings.at(i);
      return {plan.tensors.at(static_cast<size_t>(b.tensor)).name, b.offset};
    }
  }
  throw Error("no argument " + std::string(arg));
}

TEST(LayerPlan, LaunchesInStreamOrder) {
  const LayerPlan plan = plan_dense_layer({.gemm = GemmChoice::kTiled});
  std::vector<std::string> kernels, steps;
  for (const PlannedLaunch& l : plan.launches) {
    kernels.push_back(l.kernel);
    steps.push_back(l.step);
  }
  const std::vector<std::string> want = {
      "rmsnorm",   "bf16_gemm_wgmma",  "cast_bf16",
      "cast_bf16", "cast_bf16",        "rope",
      "kv_append", "decode_attention", "decode_attention_combine",
      "cast_bf16", "bf16_gemm_wgmma",  "residual_add",
      "rmsnorm",   "bf16_gemm_wgmma",  "cast_bf16",
      "swiglu",    "bf16_gemm_wgmma",  "residual_add"};
  EXPECT_EQ(kernels, want);
  EXPECT_EQ(steps.front(), "attn_norm");
  EXPECT_EQ(steps.back(), "ffn_residual");
  for (const PlannedLaunch& l : plan.launches) {
    EXPECT_EQ(l.listing_folder, l.kernel == "bf16_gemm_wgmma" ? "sm_90a" : "sm_90") << l.step;
  }
  // sm_80: hgemm_mma and the sm_80 listings throughout.
  const LayerPlan a100 = plan_dense_layer({.sm_version = 80, .gemm = GemmChoice::kTiled});
  EXPECT_EQ(step(a100, "qkv_proj").kernel, "hgemm_mma");
  EXPECT_EQ(step(a100, "down_proj").listing_folder, "sm_80");
  EXPECT_EQ(a100.tensors.at(static_cast<size_t>(a100.tensor("o_proj.weight"))).fill,
            Fill::kWeightFp16);
}

// A decode step of at most 8 tokens takes skinny_gemm by default: the variant of the
// next power of two rows, its values N and K, BF16 weights and the architecture's own
// listings on every architecture.
TEST(LayerPlan, SmallDecodeStepsTakeTheSkinnyGemm) {
  for (const int sm : {80, 90}) {
    const LayerPlan plan = plan_dense_layer({.sm_version = sm});
    const PlannedLaunch& qkv = step(plan, "qkv_proj");
    EXPECT_EQ(qkv.kernel, "skinny_gemm_m1");
    EXPECT_EQ(qkv.values, (std::vector<std::string>{"6144", "4096"}));
    EXPECT_EQ(qkv.listing_folder, "sm_" + std::to_string(sm));
    EXPECT_EQ(qkv.launch.grid.x, 6144U / 16);
    EXPECT_EQ(step(plan, "down_proj").values, (std::vector<std::string>{"4096", "14336"}));
    EXPECT_EQ(bound(plan, "qkv_proj", "a").first, "attn_norm.out");
    EXPECT_EQ(bound(plan, "down_proj", "w").first, "down_proj.weight");
    EXPECT_EQ(plan.tensors.at(static_cast<size_t>(plan.tensor("gate_up_proj.weight"))).fill,
              Fill::kWeightBf16);
    EXPECT_EQ(plan.tensors.at(static_cast<size_t>(plan.tensor("qkv_proj.weight"))).shape,
              "[6144][4096] bf16");
  }
  const std::pair<uint32_t, const char*> variants[] = {
      {1, "skinny_gemm_m1"}, {2, "skinny_gemm_m2"}, {3, "skinny_gemm_m4"},
      {5, "skinny_gemm_m8"}, {8, "skinny_gemm_m8"}, {9, "bf16_gemm_wgmma"}};
  for (const auto& [batch, kernel] : variants) {
    const LayerPlan plan = plan_dense_layer({.batch = batch});
    EXPECT_EQ(step(plan, "gate_up_proj").kernel, kernel) << batch;
    EXPECT_EQ(plan.padded_rows, batch == 9 ? 128U : skinny_gemm_rows(kernel)) << batch;
  }
  const LayerPlan three = plan_dense_layer({.batch = 3});
  EXPECT_EQ(three.tensors.at(static_cast<size_t>(three.tensor("attn_norm.out"))).bytes,
            4U * 4096 * 2);
  EXPECT_EQ(three.tensors.at(static_cast<size_t>(three.tensor("q"))).bytes, 3U * 4096 * 2);
  // A K that is no multiple of 256 (ffn 192) takes the tiled GEMM; a prefill always.
  EXPECT_EQ(step(plan_dense_layer({.ffn = 192}), "down_proj").kernel, "bf16_gemm_wgmma");
  EXPECT_EQ(step(plan_dense_layer({.phase = Phase::kPrefill, .context = 64}), "qkv_proj").kernel,
            "bf16_gemm_wgmma");
}

TEST(LayerPlan, WarpSpecialisedGemmPadsToItsClusterTile) {
  // --gemm ws: bf16_gemm_ws from sm_90a, M padded to a cluster's 256 rows, on every
  // projection; a MoE router's N padded to the 256-column tile.
  const LayerPlan plan = plan_dense_layer(
      {.phase = Phase::kPrefill, .context = 320, .gemm = GemmChoice::kWarpSpecialised});
  EXPECT_EQ(plan.tokens, 320U);
  EXPECT_EQ(plan.padded_rows, 512U);
  EXPECT_EQ(plan.gemm_row_tile, 256U);
  for (const char* name : {"qkv_proj", "o_proj", "gate_up_proj", "down_proj"}) {
    const PlannedLaunch& l = step(plan, name);
    EXPECT_EQ(l.kernel, "bf16_gemm_ws") << name;
    EXPECT_EQ(l.listing_folder, "sm_90a") << name;
    EXPECT_EQ(l.values.at(0), "512") << name;
    EXPECT_EQ(l.launch.cluster.y, 2U) << name;
  }
  EXPECT_EQ(step(plan, "qkv_proj").values, (std::vector<std::string>{"512", "6144", "4096"}));
  const LayerPlan moe = plan_moe_layer(
      {.phase = Phase::kPrefill, .context = 128, .gemm = GemmChoice::kWarpSpecialised});
  EXPECT_EQ(step(moe, "router").values, (std::vector<std::string>{"256", "256", "4096"}));
  // The tiled GEMM keeps its 128-row tile.
  EXPECT_EQ(plan_dense_layer({.phase = Phase::kPrefill, .context = 320}).padded_rows, 384U);
  // sm_80 has no wgmma: an error naming the option; an N off the 256 tile names the step.
  try {
    plan_dense_layer({.sm_version = 80, .gemm = GemmChoice::kWarpSpecialised});
    ADD_FAILURE() << "no error for --gemm ws on sm_80";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--gemm ws: bf16_gemm_ws needs sm_90"), std::string::npos)
        << e.what();
  }
  try {
    plan_dense_layer({.phase = Phase::kPrefill,
                      .context = 256,
                      .hidden = 4224,
                      .gemm = GemmChoice::kWarpSpecialised});
    ADD_FAILURE() << "no error for a hidden size off the 256-column tile";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("(bf16_gemm_ws): bf16_gemm_ws N (4224) must be a multiple "
                                         "of 256"),
              std::string::npos)
        << e.what();
  }
}

TEST(LayerPlan, Llama3LayerSizes) {
  const LayerPlan plan = plan_dense_layer({.gemm = GemmChoice::kTiled});
  EXPECT_EQ(plan.tokens, 1U);
  EXPECT_EQ(plan.padded_rows, 128U);
  auto bytes = [&](const char* name) {
    return plan.tensors.at(static_cast<size_t>(plan.tensor(name))).bytes;
  };
  // Weights: (32 + 2 x 8) x 128 = 6144 rows of 4096, 4096 x 4096, 2 x 14336 x 4096,
  // 4096 x 14336, BF16.
  EXPECT_EQ(bytes("qkv_proj.weight"), 6144ULL * 4096 * 2);
  EXPECT_EQ(bytes("o_proj.weight"), 4096ULL * 4096 * 2);
  EXPECT_EQ(bytes("gate_up_proj.weight"), 28672ULL * 4096 * 2);
  EXPECT_EQ(bytes("down_proj.weight"), 4096ULL * 14336 * 2);
  EXPECT_EQ(bytes("attn_norm.weight"), 8192U);
  // The cache: 4096 tokens in 8 splits of 32 pages of 16; 8 KV heads of 128, BF16.
  EXPECT_EQ(bytes("k_cache"), 256ULL * 8 * 16 * 128 * 2);
  EXPECT_EQ(bytes("v_cache"), 8ULL << 20);
  EXPECT_EQ(bytes("block_tables"), 256U * 4);
  EXPECT_EQ(bytes("attention.o_partial"), 32U * 8 * 128 * 4);
  EXPECT_EQ(bytes("attention.lse"), 32U * 8 * 4);
  // GEMM inputs and outputs have the 128 padded rows; the others the one token.
  EXPECT_EQ(bytes("attn_norm.out"), 128U * 4096 * 2);
  EXPECT_EQ(bytes("qkv_proj.out"), 128U * 6144 * 4);
  EXPECT_EQ(bytes("gate_up_proj.out"), 128ULL * 28672 * 4);
  EXPECT_EQ(bytes("q"), 4096U * 2);
  EXPECT_EQ(bytes("k"), 1024U * 2);
  EXPECT_EQ(bytes("x"), 4096U * 2);
  EXPECT_EQ(bytes("rope.cos_sin"), 4096U * 128 * 4);
  EXPECT_EQ(plan.tensors.size(), 31U);
  uint64_t total = 0;
  for (const Tensor& t : plan.tensors) total += t.bytes;
  EXPECT_EQ(plan.total_bytes(), total);
  // 130 tokens: two tiles of rows.
  EXPECT_EQ(plan_dense_layer({.batch = 130}).padded_rows, 256U);
  // skinny_gemm_m1 computes the one row alone.
  const LayerPlan skinny = plan_dense_layer({});
  EXPECT_EQ(skinny.padded_rows, 1U);
  EXPECT_EQ(skinny.tensors.at(static_cast<size_t>(skinny.tensor("gate_up_proj.out"))).bytes,
            28672U * 4);
  EXPECT_EQ(skinny.tensors.size(), 31U);
}

TEST(LayerPlan, LaunchesShareTheLayersTensors) {
  const LayerPlan plan = plan_dense_layer({.gemm = GemmChoice::kTiled});
  EXPECT_EQ(bound(plan, "attn_norm", "y"),
            std::make_pair(std::string("attn_norm.out"), uint64_t{0}));
  EXPECT_EQ(bound(plan, "qkv_proj", "a_map").first, "attn_norm.out");
  EXPECT_EQ(bound(plan, "qkv_proj", "c").first, "qkv_proj.out");
  // Q, K and V are column slices of the QKV output: 4096 and 5120 FP32 values in.
  EXPECT_EQ(bound(plan, "q_cast", "c"), std::make_pair(std::string("qkv_proj.out"), uint64_t{0}));
  EXPECT_EQ(bound(plan, "k_cast", "c"),
            std::make_pair(std::string("qkv_proj.out"), uint64_t{16384}));
  EXPECT_EQ(bound(plan, "v_cast", "c"),
            std::make_pair(std::string("qkv_proj.out"), uint64_t{20480}));
  EXPECT_EQ(bound(plan, "rope", "q").first, "q");
  EXPECT_EQ(bound(plan, "rope", "k").first, "k");
  EXPECT_EQ(bound(plan, "kv_append", "key").first, "k");
  EXPECT_EQ(bound(plan, "kv_append", "key_cache").first, "k_cache");
  EXPECT_EQ(bound(plan, "attention", "q").first, "q");
  EXPECT_EQ(bound(plan, "attention", "k_cache").first, "k_cache");
  EXPECT_EQ(bound(plan, "attention", "v_cache").first, "v_cache");
  EXPECT_EQ(bound(plan, "attention_combine", "o_partial").first, "attention.o_partial");
  EXPECT_EQ(bound(plan, "attention_cast", "out").first, "o_proj.in");
  EXPECT_EQ(bound(plan, "attn_residual", "residual").first, "x");
  EXPECT_EQ(bound(plan, "ffn_norm", "x").first, "h");
  EXPECT_EQ(bound(plan, "ffn_residual", "residual").first, "h");
  EXPECT_EQ(bound(plan, "swiglu", "gate_up").first, "gate_up");
  EXPECT_EQ(bound(plan, "down_proj", "a_map").first, "down_proj.in");
  // Every tensor is used, and every tensor a launch reads was filled or written before.
  std::set<int> used, ready;
  for (size_t i = 0; i < plan.tensors.size(); ++i)
    if (plan.tensors[i].fill != Fill::kZero) ready.insert(static_cast<int>(i));
  for (const PlannedLaunch& l : plan.launches) {
    const auto args = l.launch.arguments();
    for (size_t i = 0; i < args.size(); ++i) {
      const int t = l.bindings[i].tensor;
      if (t < 0) continue;
      used.insert(t);
      const bool reads = args[i].access != kernels::Access::kWrite;
      // GEMM inputs have padding rows nothing writes: they start zero, as intended.
      const bool padded = plan.tensors[static_cast<size_t>(t)].bytes > args[i].size_bytes;
      if (reads && !padded) {
        EXPECT_TRUE(ready.contains(t)) << l.step << " " << args[i].name;
      }
      if (args[i].access != kernels::Access::kRead) ready.insert(t);
    }
  }
  EXPECT_EQ(used.size(), plan.tensors.size());
}

TEST(LayerPlan, AddressesAreGlobalMemorysPlacement) {
  const LayerPlan plan =
      plan_dense_layer({.context = 100, .hidden = 256, .heads = 4, .kv_heads = 1, .ffn = 64});
  const std::vector<uint64_t> addresses = tensor_addresses(plan);
  GlobalMemory memory;
  for (size_t i = 0; i < plan.tensors.size(); ++i)
    EXPECT_EQ(memory.allocate(plan.tensors[i].name, plan.tensors[i].bytes), addresses[i]);
}

void expect_error(const LayerOptions& o, const std::string& text) {
  try {
    plan_dense_layer(o);
    ADD_FAILURE() << "no error; expected one with '" << text << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

// --draft K: every step takes batch x (K + 1) token rows, the attention verifies them
// (spec_verify_attention) and the combine takes the rows' contexts it wrote.
TEST(LayerPlan, DraftTokensAreVerifiedRows) {
  const LayerPlan plan = plan_dense_layer({.batch = 2, .context = 600, .draft = 3});
  EXPECT_EQ(plan.tokens, 8U);
  EXPECT_EQ(plan.padded_rows, 8U);
  EXPECT_EQ(step(plan, "qkv_proj").kernel, "skinny_gemm_m8");
  EXPECT_EQ(step(plan, "attn_norm").values, (std::vector<std::string>{"8", "4096"}));
  EXPECT_EQ(step(plan, "rope").values.at(0), "8");
  EXPECT_EQ(step(plan, "kv_append").values.at(0), "8");
  EXPECT_EQ(step(plan, "ffn_residual").values.at(0), "8");
  const PlannedLaunch& attention = step(plan, "attention");
  EXPECT_EQ(attention.kernel, "spec_verify_attention");
  EXPECT_EQ(attention.values, (std::vector<std::string>{"2", "600", "3", "8"}));
  const PlannedLaunch& combine = step(plan, "attention_combine");
  EXPECT_EQ(combine.kernel, "decode_attention_combine");
  EXPECT_EQ(combine.values, (std::vector<std::string>{"8", "600", "8"}));
  EXPECT_EQ(bound(plan, "attention", "row_lens").first, "attention.row_lens");
  EXPECT_EQ(bound(plan, "attention_combine", "context_lens").first, "attention.row_lens");
  EXPECT_EQ(bound(plan, "attention", "context_lens").first, "context_lens");
  auto bytes = [&](const char* name) {
    return plan.tensors.at(static_cast<size_t>(plan.tensor(name))).bytes;
  };
  EXPECT_EQ(bytes("positions"), 8U * 4);
  EXPECT_EQ(bytes("slot_mapping"), 8U * 8);
  EXPECT_EQ(bytes("context_lens"), 2U * 4);
  EXPECT_EQ(bytes("block_tables"), 2U * 64 * 4);  // 2 splits of 32 pages per sequence
  EXPECT_EQ(bytes("attention.o_partial"), 8U * 32 * 2 * 128 * 4);
  EXPECT_EQ(bytes("q"), 8U * 4096 * 2);
  // Contexts 600 and 513: the rows sit at the last 4 positions of each.
  EXPECT_EQ(row_positions(plan.options),
            (std::vector<int32_t>{596, 597, 598, 599, 509, 510, 511, 512}));
  // 2 x 5 = 10 rows: the tiled GEMM; no draft: one row per sequence, decode_attention.
  EXPECT_EQ(step(plan_dense_layer({.batch = 2, .draft = 4}), "qkv_proj").kernel, "bf16_gemm_wgmma");
  const LayerPlan plain = plan_dense_layer({.batch = 2, .context = 600});
  EXPECT_EQ(plain.tokens, 2U);
  EXPECT_EQ(step(plain, "attention").kernel, "decode_attention");
  EXPECT_EQ(row_positions(plain.options), (std::vector<int32_t>{599, 512}));
  EXPECT_THROW(plain.tensor("attention.row_lens"), Error);
}

TEST(LayerPlan, BadOptionsNameTheOption) {
  expect_error({.heads = 30}, "--heads 30 is not a multiple of --kv-heads 8");
  expect_error({.heads = 16}, "--heads 16 with --kv-heads 8: decode_attention groups exactly 4");
  expect_error({.kv_heads = 0}, "--kv-heads 0");
  expect_error({.hidden = 1000}, "--hidden 1000: expected a positive multiple of 128");
  expect_error({.ffn = 100}, "--ffn 100: expected a positive multiple of 64");
  expect_error({.batch = 0}, "--batch 0");
  expect_error({.context = 0}, "--context 0");
  expect_error({.phase = Phase::kPrefill, .context = 100},
               "--context 100 with --phase prefill: expected a multiple of 64");
  expect_error({.phase = Phase::kPrefill, .batch = 32, .context = 4096},
               "--batch 32 x --context 4096 = 131072 prompt tokens with --phase prefill: "
               "expected at most 65536");
  expect_error({.phase = Phase::kPrefill, .heads = 30}, "--heads 30 is not a multiple");
  expect_error({.sm_version = 75}, "--arch sm_75");
  expect_error({.batch = 4096, .context = 131072}, "GiB, more than the 32 GiB");
  expect_error({.batch = 9, .gemm = GemmChoice::kSkinny},
               "--gemm skinny: 9 token rows, more than skinny_gemm's 8");
  expect_error({.ffn = 192, .gemm = GemmChoice::kSkinny},
               "--gemm skinny: --ffn = 192 is a projection's K, and skinny_gemm takes K in "
               "steps of 256");
  expect_error({.hidden = 384, .gemm = GemmChoice::kSkinny},
               "--gemm skinny: --hidden = 384 is a projection's K");
  expect_error({.phase = Phase::kPrefill, .context = 64, .gemm = GemmChoice::kSkinny},
               "--gemm skinny: 64 token rows, more than skinny_gemm's 8");
  expect_error({.draft = 16}, "--draft 16: expected 0 to 15 draft tokens");
  expect_error({.phase = Phase::kPrefill, .context = 64, .draft = 2},
               "--draft 2 with --phase prefill: draft tokens are verified in a decode step");
  expect_error({.draft = 2, .attention = AttentionChoice::kTensorCores},
               "--attention tc with --draft 2: the verification step's attention "
               "(spec_verify_attention) runs on the CUDA cores only; expected --attention cuda");
  expect_error({.context = 7, .draft = 3},
               "--context 7 with --draft 3: expected at least 2 x (draft + 1) = 8");
  expect_error({.batch = 3, .draft = 3, .gemm = GemmChoice::kSkinny},
               "--gemm skinny: 12 token rows, more than skinny_gemm's 8");
}

}  // namespace
}  // namespace sassim::emu::workload
