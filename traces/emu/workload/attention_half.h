// The attention half of a decoder layer, shared by the dense and the MoE layers
// (layer_plan.h): RMSNorm, QKV GEMM and its BF16 casts, RoPE, KV append, then decode
// attention and its combine (decode) or causal prefill_attention (prefill), the output
// GEMM and the residual add that gives h, the FFN half's input. Its tensors are declared
// first (the layer's input x first, h last), its launches when the plan asks for them, so
// that a layer lists all tensors before all launches.
#pragma once

#include <cstdint>

#include "traces/emu/workload/layer_plan.h"
#include "traces/emu/workload/plan_builder.h"

namespace sassim::emu::workload {

// The checks of `o` for its phase (sassim::Error naming the option), before planning.
void check_attention_options(const LayerOptions& o);

// Token rows of a layer: batch x (draft + 1) (decode) or batch x context (prefill).
uint32_t layer_tokens(const LayerOptions& o);

class AttentionHalf {
 public:
  // Declares the half's tensors in `b` for `tokens` rows (gemm.rows rows for the GEMMs).
  AttentionHalf(PlanBuilder& b, const LayerOptions& o, const LayerGemm& gemm, uint32_t tokens);

  int x() const { return x_; }  // the layer's input [tokens][hidden] BF16
  int h() const { return h_; }  // x + attention [tokens][hidden] BF16

  // Adds the half's launches, attn_norm to attn_residual.
  void add_launches(PlanBuilder& b) const;

 private:
  void declare_decode(PlanBuilder& b);
  void declare_prefill(PlanBuilder& b);

  LayerOptions o_;
  LayerGemm gemm_;
  uint32_t t_ = 0;
  uint64_t pages_ = 0;  // the paged KV cache's pages
  int x_ = -1, w_norm_ = -1, xn_ = -1, w_qkv_ = -1, qkv32_ = -1, q_ = -1, k_ = -1, v_ = -1;
  int positions_ = -1, cos_sin_ = -1, k_cache_ = -1, v_cache_ = -1, slots_ = -1;
  int tables_ = -1, lens_ = -1, o_partial_ = -1, lse_ = -1, attn32_ = -1;  // decode only
  int row_lens_ = -1;                                                      // decode with --draft
  int attn_ = -1, w_o_ = -1, o32_ = -1, h_ = -1;
};

}  // namespace sassim::emu::workload
