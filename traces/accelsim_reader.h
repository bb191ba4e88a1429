#pragma once
// Reader of Accel-Sim SASS traces: kernelslist.g + kernel-N.traceg(.xz|.zst), tracer
// versions 1.2, 3, 4 and 5, all three address modes. Streams: a kernel's CTAs are
// read from disk only when asked for.
#include <filesystem>
#include <memory>

#include "traces/kernel_trace.h"
#include "traces/trace_store.h"

namespace sassim::traces {

// Opens a kernelslist.g (or a folder holding one). Throws sassim::Error when the
// list or a file it names is missing or malformed. Its kernels share one TraceStore
// (`store`; null: default_trace_store()).
std::unique_ptr<Workload> open_accelsim_workload(const std::filesystem::path& trace,
                                                 std::shared_ptr<TraceStore> store = nullptr);

// Opens one kernel-N.traceg (or, when that is missing, its .xz or .zst) and reads its
// header; its CTAs go to `store` (null: default_trace_store()).
std::unique_ptr<KernelTrace> open_accelsim_kernel(const std::filesystem::path& file,
                                                  std::shared_ptr<TraceStore> store = nullptr);

}  // namespace sassim::traces
