// Inputs and output checks of the mixture-of-experts kernels (kernels/moe_routing.h,
// moe_gather.h, moe_grouped_gemm.h) for `sassim capture` (suite_io.cc hands these kernels
// over) and for a layer's launches (traces/emu/workload/layer_check.cc).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>

#include "kernels/launch.h"
#include "kernels/params.h"
#include "traces/emu/suite/suite_io.h"

namespace sassim::emu {

// Fills the inputs of `launch` as its suite program does: the routing of
// kernels::moe::example_topk (logits of seed 1), and BF16 / FP32 dyadic activations and
// weights; false when the kernel is not one of these.
bool fill_moe_inputs(const kernels::Launch& launch, kernels::ParamValues values,
                     DeviceBuffers& buffers);

// The outputs against the CPU references bit for bit; empty when the kernel is not one of
// these.
std::optional<SuiteCheck> check_moe_outputs(const kernels::Launch& launch,
                                            kernels::ParamValues values, DeviceBuffers& buffers);

// A launch's arguments as the check reads them: `before(i)` as the launch found argument i,
// `after(i)` as it left it.
struct MoeArgs {
  std::function<std::span<const uint8_t>(size_t)> before;
  std::function<std::span<const uint8_t>(size_t)> after;
};

// How moe_grouped_gemm is checked: bit for bit (exact sums: the suite's dyadic inputs) or
// within K x 2^-23 x sum |a w| of the double-precision product (any inputs: a layer's).
enum class GemmCheck { kExact, kSummationBound };

// The check of one launch of a mixture-of-experts kernel on the inputs it read; empty when
// the kernel is not one of these.
std::optional<SuiteCheck> check_moe_launch(const kernels::Launch& launch,
                                           kernels::ParamValues values, const MoeArgs& args,
                                           GemmCheck gemm);

}  // namespace sassim::emu
