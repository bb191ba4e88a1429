// A decoder layer as the GPU runs it: the tensors it allocates once (activations,
// weights, the paged KV cache, index tensors, scratch) and its kernel launches in stream
// order, each buffer argument bound to a tensor and a byte offset in it. Pure: no
// memory is allocated here (layer_capture.h executes a plan). See docs/LLM.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/launch.h"
#include "traces/collective_line.h"

namespace sassim::emu::workload {

enum class Phase { kDecode, kPrefill };

// The projections' GEMM kernel: kTiled is the 128 x 128 tensor-core tile (bf16_gemm_wgmma
// on sm_90, hgemm_mma before it), kSkinny the CUDA-core skinny_gemm_mM for a decode step
// of at most 8 tokens (weights streamed once), kAuto skinny_gemm where it can run (every
// K a multiple of 256), else tiled; kWarpSpecialised (sm_90 only) the 128 x 256 tile of
// bf16_gemm_ws, built as CUTLASS's Hopper GEMMs are (M padded to 256, every N a multiple
// of 256).
enum class GemmChoice { kAuto, kTiled, kSkinny, kWarpSpecialised };

// A decode step's attention: kCudaCores decode_attention (FMAs of the group's 4 heads on
// the CUDA cores), kTensorCores decode_attention_tc (the same splits on mma.sync, as
// serving engines' grouped-query decode kernels). Prefill attention (prefill_attention)
// and a verification step (spec_verify_attention) have one form each.
enum class AttentionChoice { kCudaCores, kTensorCores };

// The layer's shape. Defaults: one layer of Llama 3 8B (config.json of
// meta-llama/Meta-Llama-3-8B: hidden_size 4096, num_attention_heads 32,
// num_key_value_heads 8, head_dim 4096 / 32 = 128, intermediate_size 14336,
// rms_norm_eps 1e-5, rope_theta 500000, num_hidden_layers 32), decoding one sequence of 4096
// tokens.
struct LayerOptions {
  Phase phase = Phase::kDecode;
  uint32_t batch = 1;       // sequences: one new token each (decode), or a prompt each (prefill)
  uint32_t context = 4096;  // decode: tokens the new one attends to, itself included (the
                            // longest); prefill: the prompt's length, every sequence's
  uint32_t draft = 0;       // decode: draft tokens each sequence verifies (speculative
                            // decoding), 0 to 15; 0: a plain decode step
  uint32_t hidden = 4096;
  uint32_t heads = 32;
  uint32_t kv_heads = 8;
  uint32_t ffn = 14336;
  uint32_t model_layers = 32;  // layers of the model the layer stands for (num_hidden_layers)
  int sm_version = 90;         // 80, 86, 89: hgemm_mma; 90: bf16_gemm_wgmma (sm_90a)
  GemmChoice gemm = GemmChoice::kAuto;
  AttentionChoice attention = AttentionChoice::kCudaCores;
  // moe-layer only. Defaults: Mixtral 8x7B (config.json of mistralai/Mixtral-8x7B-v0.1:
  // num_local_experts 8, num_experts_per_tok 2; its hidden_size 4096, num_attention_heads
  // 32, num_key_value_heads 8, intermediate_size 14336 per expert, rms_norm_eps 1e-5 and
  // num_hidden_layers 32 are the defaults above; its rope_theta 1e6 differs from the rope
  // kernel's 500000, which changes values, not work).
  uint32_t experts = 8;
  uint32_t top_k = 2;
  // Tensor-parallel ranks (tensor_parallel.h); the plan is one rank's shard. 1: one GPU.
  uint32_t tp = 1;
  // moe-layer: expert-parallel ranks and the rank planned (expert_parallel.h). 1: one GPU.
  uint32_t ep = 1;
  uint32_t ep_rank = 0;
};

// How a tensor starts (layer_capture.cc fills it).
enum class Fill {
  kZero,         // written by a launch before it is read (or padding rows)
  kBf16,         // BF16 multiples of 1/8 in [-1, 1] (kernels/values.h), stream `seed`
  kWeightBf16,   // a GEMM's weights: multiples of 1/8 in [-1, 1] times weight_scale, BF16
  kWeightFp16,   // the same values in FP16 (hgemm_mma's operand type)
  kPositions,    // int32 [batch * (draft + 1)]: context_len - draft - 1 + i for row i of a
                 // sequence (the new token's position, or the verified rows')
  kCosSin,       // rope's table [max_position][128] FP32
  kSlots,        // int64 [batch * (draft + 1)]: the cache slots of those positions
  kBlockTables,  // int32 [batch][max_pages]
  kContextLens,  // int32 [batch]
  // Prefill: every token of every prompt.
  kPromptPositions,  // int32 [batch * context]: token i of a prompt is at position i
  kPromptSlots,      // int64 [batch * context]: prompt b's pages are b * P .. b * P + P - 1
  kPairOrder,        // int32 [n]: i at index i (expert parallelism: each pair's combined row)
};

enum class Role { kActivation, kWeight, kCache, kIndex, kScratch };

struct Tensor {
  std::string name;
  std::string shape;  // "[1][4096] bf16"
  uint64_t bytes = 0;
  Role role = Role::kScratch;
  Fill fill = Fill::kZero;
  uint64_t seed = 0;
  float weight_scale = 1;  // kWeight: a power of two near 1/sqrt(K)
  // kBf16 and kWeight*: the index of the first value in the seed's stream, so that a
  // tensor is a slice of a larger one (expert parallelism: a rank's experts, its rows).
  uint64_t fill_offset = 0;
};

// Where one argument of a launch points: a tensor (-1 for scalars) and a byte offset.
struct Binding {
  int tensor = -1;
  uint64_t offset = 0;
};

struct PlannedLaunch {
  std::string step;                 // "qkv_proj"
  std::string kernel;               // "bf16_gemm_wgmma"
  std::vector<std::string> values;  // the suite values describe_launch takes
  std::string listing_folder;       // "sm_90a": the folder of kernels/sass holding it
  kernels::Launch launch;
  std::vector<Binding> bindings;  // one per argument
};

// A collective after launch `after` of the plan's stream (tensor and expert parallelism).
struct PlannedCollective {
  std::string step;  // "o_proj.all_reduce"
  size_t after = 0;  // index in LayerPlan::launches
  traces::CollectiveCommand command;
};

// The workload names `sassim workload` knows.
inline constexpr std::string_view kDenseLayer = "dense-layer";
inline constexpr std::string_view kMoeLayer = "moe-layer";

struct LayerPlan {
  std::string_view workload;  // kDenseLayer or kMoeLayer
  LayerOptions options;
  uint32_t tokens = 0;         // rows the layer computes (decode: batch x (draft + 1); prefill:
                               // batch x context)
  uint32_t padded_rows = 0;    // GEMM rows: tokens rounded up to the GEMM's rows (128 for the
                               // tiled GEMMs, 256 for bf16_gemm_ws, 1, 2, 4 or 8 for
                               // skinny_gemm)
  uint32_t gemm_row_tile = 0;  // the rows padded_rows is a multiple of (the GEMM's tile)
  std::vector<Tensor> tensors;
  std::vector<PlannedLaunch> launches;
  std::vector<PlannedCollective> collectives;  // in stream order
  // Index of the tensor named `name`; throws sassim::Error when there is none.
  int tensor(std::string_view name) const;
  uint64_t total_bytes() const;
};

// Checks `o` (sassim::Error naming the option: "--heads 30: ...") and plans a dense
// decoder layer (Llama style): RMSNorm, QKV GEMM, RoPE, KV append, decode attention and
// its combine, output GEMM, residual add, RMSNorm, gate/up GEMM, SwiGLU, down GEMM,
// residual add, with the BF16 epilogues the suite's FP32-output GEMMs need.
// With o.draft = K > 0 the step verifies K draft tokens per sequence (speculative
// decoding): every GEMM, cast, norm, RoPE (positions context - K - 1 + i) and kv_append
// (K + 1 new slots per sequence) takes batch x (K + 1) token rows, and the attention is
// spec_verify_attention and decode_attention_combine over its rows.
// With o.phase == kPrefill, plan_dense_prefill (sassim::Error naming --draft when o.draft > 0).
LayerPlan plan_dense_layer(const LayerOptions& o);

// The positions of a decode step's token rows: row i of sequence b's draft + 1 rows is
// at context_b - draft - 1 + i (decode_attention::context_lens gives context_b; draft 0:
// the new token's position, context_b - 1).
std::vector<int32_t> row_positions(const LayerOptions& o);

// A dense layer's prefill (prefill_plan.cc): every prompt token through the same steps,
// the GEMMs on all of them, RoPE at positions 0 .. context - 1, every K/V row appended to
// the paged cache, and causal prefill_attention over the prompt's own K and V instead of
// the decode attention, writing the output projection's BF16 input directly.
LayerPlan plan_dense_prefill(const LayerOptions& o);

// Checks `o` (also --experts and --top-k) and plans a mixture-of-experts decoder layer
// (moe_plan.cc, Mixtral style): the dense layer's attention half in either phase, then
// RMSNorm, the router GEMM (o.experts outputs, N padded to the GEMM's tile), top-k
// softmax, the alignment of the (token, slot) pairs into per-expert segments of whole row
// tiles, the gather of the rows, the experts' gate/up grouped GEMM, its BF16 cast and
// SwiGLU over the permuted rows, the down grouped GEMM, and the weighted un-permutation
// with the residual add. With o.tp > 1, plan_tp_rank; with o.ep > 1, rank o.ep_rank's
// plan of expert parallelism (expert_parallel.h).
LayerPlan plan_moe_layer(const LayerOptions& o);

}  // namespace sassim::emu::workload
