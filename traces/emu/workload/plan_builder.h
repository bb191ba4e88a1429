// What the layer planners (layer_plan.cc: decode; prefill_plan.cc: prefill) share: the
// checks every phase makes of the options, the tensor and launch builder, and the final
// check that every bound argument fits its tensor.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "traces/emu/workload/layer_plan.h"

namespace sassim::emu::workload {

inline constexpr uint32_t kHeadDim = 128;
inline constexpr uint32_t kGemmTile = 128;  // hgemm_mma and bf16_gemm_wgmma: 128 x 128 CTA tiles

// The checks of `o` that hold for every phase (sassim::Error naming the option).
void check_common_options(const LayerOptions& o);

// 2^-floor(log2(K) / 2): weights of about 1/sqrt(K) keep the projections' outputs of the
// order of their inputs (a Gaussian initialisation's standard deviation).
float weight_scale(uint32_t k);

// The GEMM the layer's four projections take for `tokens` rows (o.gemm resolved;
// sassim::Error naming --gemm when skinny_gemm is asked for and cannot run).
struct LayerGemm {
  std::string kernel;  // "bf16_gemm_wgmma", "bf16_gemm_ws", "hgemm_mma", "skinny_gemm_m1" ..
  bool skinny = false;
  uint32_t rows = 0;        // tokens padded to the kernel's rows
  uint32_t row_tile = 0;    // the kernel's rows a CTA (or cluster), what `rows` is padded to
  uint32_t col_tile = 0;    // the kernel's columns a CTA, what a padded N is padded to
  std::string weight_type;  // "bf16" or "fp16"
  Fill weight_fill = Fill::kWeightBf16;
  // The suite values of a launch computing N outputs of each row from K inputs.
  std::vector<std::string> values(uint64_t n, uint64_t k) const;
};
LayerGemm choose_gemm(const LayerOptions& o, uint32_t tokens);

std::string u(uint64_t v);
std::string dims(uint64_t rows, uint64_t cols, std::string_view type);

class PlanBuilder {
 public:
  explicit PlanBuilder(LayerPlan& plan) : plan_(plan) {}

  int tensor(std::string name, std::string shape, uint64_t bytes, Role role,
             Fill fill = Fill::kZero, uint64_t seed = 0, float scale = 1);

  // A launch of `kernel` on `values`, its buffer arguments bound in order to `bound`.
  void launch(std::string step, std::string_view kernel, std::vector<std::string> values,
              std::vector<Binding> bound);

 private:
  LayerPlan& plan_;
};

// sassim::Error when the tensors take more than a capture holds in memory, naming the
// options that `reduce` lists.
void check_layer_size(const LayerPlan& plan,
                      std::string_view reduce = "--batch, --context, --hidden or --ffn");

// sassim::Error when an argument of a launch runs past the end of its tensor.
void check_bindings(const LayerPlan& plan);

}  // namespace sassim::emu::workload
