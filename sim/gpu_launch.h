#pragma once
// One kernel launch as the GPU runs it (sim/gpu.cc prepares, starts and finishes it;
// sim/gpu_run.cc runs workloads of them). Not for use outside the GPU.
#include <chrono>
#include <cstdint>
#include <memory>

#include "sim/control_bits.h"
#include "sim/cta_sampler.h"
#include "sim/exec_timing.h"
#include "sim/gpu.h"
#include "sim/register_file.h"

namespace sassim::sim {

struct Gpu::Launch {
  std::unique_ptr<traces::KernelTrace> owned;  // set when the launch came from a workload
  traces::KernelTrace* trace = nullptr;
  std::size_t order = 0;  // position in launch order (and vertex of the launch graph)
  std::unique_ptr<ExecTiming> timing;
  std::unique_ptr<ControlBitsTable> control;          // control-bit mode, else null
  std::unique_ptr<RegisterReadTable> register_reads;  // register banks modelled, else null
  KernelContext context;
  KernelContext::Progress progress;
  StatsSnapshot before;
  std::unique_ptr<CtaSampler> cta_sampler;  // sampling within the kernel, else null
  std::uint64_t start_cycle = 0;
  std::chrono::steady_clock::time_point host_start;
};

}  // namespace sassim::sim
