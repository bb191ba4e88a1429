#pragma once
// Checks that a kernel launched with thread block clusters can run on the configured
// GPU: clusters need sm_90, at most cluster.max_cluster_ctas CTAs each, and room for a
// whole cluster on one GPC.
#include "configs/sassim_config.pb.h"
#include "sim/gpc_layout.h"
#include "sim/kernel_context.h"
#include "traces/kernel_trace.h"

namespace sassim::sim {

// Throws sassim::Error naming the trace file and the line of its "-cluster dim".
void check_cluster_launch(const traces::KernelInfo& info, const CtaResources& cta,
                          const config::GpuConfig& config, const GpcLayout& gpcs);

}  // namespace sassim::sim
