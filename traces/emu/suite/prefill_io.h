// Inputs and output check of the prefill kernels of an LLM decoder layer
// (kernels/prefill_attention.h) for `sassim capture`; suite_io.cc hands these kernels
// over to them.
#pragma once

#include <optional>

#include "kernels/launch.h"
#include "kernels/params.h"
#include "traces/emu/suite/suite_io.h"

namespace sassim::emu {

// Fills the inputs of `launch` as its suite program does (Q, K, V: BF16 of seeds 1, 2
// and 3); false when the kernel is not one of these.
bool fill_prefill_inputs(const kernels::Launch& launch, kernels::ParamValues values,
                         DeviceBuffers& buffers);

// prefill_attention's BF16 output against the blockwise CPU reference's FP32 values
// within kernels::prefill_attention::kRelTolerance and kAbsTolerance. Empty when the
// kernel is not one of these.
std::optional<SuiteCheck> check_prefill_outputs(const kernels::Launch& launch,
                                                kernels::ParamValues values,
                                                DeviceBuffers& buffers);

}  // namespace sassim::emu
