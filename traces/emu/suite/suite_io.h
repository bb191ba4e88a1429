// The reference suite's kernels as `sassim capture` runs them: the launch a kernel's
// values describe, the inputs its suite program uploads (kernels/values.h), and a
// comparison of what the executed SASS wrote with the kernel's CPU reference.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kernels/params.h"
#include "traces/emu/capture.h"

namespace sassim::emu {

struct SuiteCheck {
  bool ok = true;
  std::string message;  // "N of M values match the CPU reference" or the first mismatch
};

// Fills the input buffers of `launch` (from kernels::describe_launch) as the kernel's suite
// program does. Throws sassim::Error for a kernel that is not in the suite.
void fill_suite_inputs(const kernels::Launch& launch, kernels::ParamValues values,
                       DeviceBuffers& buffers);

// The host-to-device copies the kernel's program makes before the launch, as the trace
// lists them: for the microbenchmarks (kernels/ubench), every buffer with initial contents
// (kernels/ubench/ubench_host.cuh copies exactly those, so they start L2-resident). Other
// suite kernels: none.
std::vector<HostCopy> suite_host_copies(const kernels::Launch& launch, DeviceBuffers& buffers);

// Compares the output buffers with the CPU reference: exactly, except flash_attention_fwd
// (relative 1e-3 plus absolute 1e-4, the tolerance of its suite program) and
// decode_attention and its combine (llm_io.h).
SuiteCheck check_suite_outputs(const kernels::Launch& launch, kernels::ParamValues values,
                               DeviceBuffers& buffers);

}  // namespace sassim::emu
