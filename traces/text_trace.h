#pragma once
// Traces built from in-memory Accel-Sim text, for tests of the timing model: the same
// parser as for files, with a name of the caller's choosing in messages.
#include <memory>
#include <string>
#include <vector>

#include "traces/kernel_trace.h"

namespace sassim::traces {

// A kernel from the text of a kernel-N.traceg (header and CTAs). Throws sassim::Error
// ("<name_for_messages>:<line>: ...") when the header is malformed; CTAs are parsed on
// next_cta().
std::unique_ptr<KernelTrace> kernel_from_text(std::string text, std::string name_for_messages);

// A workload that launches the given kernels in order (no memory copies).
std::unique_ptr<Workload> workload_from_kernels(std::vector<std::unique_ptr<KernelTrace>> kernels);

}  // namespace sassim::traces
