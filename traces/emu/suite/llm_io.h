// Inputs and output checks of the decode-path kernels of an LLM decoder layer
// (kernels/rmsnorm.h, swiglu.h, rope.h, kv_append.h, decode_attention.h, skinny_gemm.h) for
// `sassim capture`; suite_io.cc hands these kernels over to them.
#pragma once

#include <optional>

#include "kernels/launch.h"
#include "kernels/params.h"
#include "traces/emu/suite/suite_io.h"

namespace sassim::emu {

// Fills the inputs of `launch` as its suite program does; false when the kernel is not
// one of these.
bool fill_llm_inputs(const kernels::Launch& launch, kernels::ParamValues values,
                     DeviceBuffers& buffers);

// The outputs against the CPU references: rmsnorm, swiglu, rope, kv_append and skinny_gemm
// bit for bit
// (their references' IEEE 1/x, 1/sqrt(x) and exp2 are what the executor's MUFU compute),
// decode_attention and its combine within kernels::decode_attention::kRelTolerance and
// kAbsTolerance. Empty when the kernel is not one of these.
std::optional<SuiteCheck> check_llm_outputs(const kernels::Launch& launch,
                                            kernels::ParamValues values, DeviceBuffers& buffers);

}  // namespace sassim::emu
