// Inputs and output checks of speculative decoding's kernels (kernels/spec_verify_attention.h,
// kernels/spec_accept.h) for `sassim capture`; suite_io.cc hands these kernels over to them.
#pragma once

#include <optional>

#include "kernels/launch.h"
#include "kernels/params.h"
#include "traces/emu/suite/suite_io.h"

namespace sassim::emu {

// Fills the inputs of `launch` as its suite program does; false when the kernel is not
// one of these.
bool fill_spec_inputs(const kernels::Launch& launch, kernels::ParamValues values,
                      DeviceBuffers& buffers);

// The outputs against the CPU references: spec_verify_attention's partials within
// kernels::spec_verify_attention::kRelTolerance and kAbsTolerance and its row_lens exactly,
// spec_argmax and spec_accept exactly. Empty when the kernel is not one of these.
std::optional<SuiteCheck> check_spec_outputs(const kernels::Launch& launch,
                                             kernels::ParamValues values, DeviceBuffers& buffers);

}  // namespace sassim::emu
