#pragma once
// Functional cache warm-up for the CTAs that sampling within a kernel skips
// (sim/cta_sampler.h): a skipped CTA's global loads, stores, atomics and async copies
// reach the L2 as accesses without time (memsys::MemorySystem::warm_l2), so that the
// tail and the launches after the kernel find the lines the skipped CTAs would have
// left, dirty ones included. The warps' instructions are taken in turn, one of each
// warp, in program order. Shared, local and constant accesses and TMA / bulk copies
// (whose records hold no per-thread addresses) are left out, and so are the L1s: the
// tail is one wave, and each launch starts with its L1s invalidated.
#include "memsys/memory_system.h"
#include "sim/kernel_context.h"
#include "traces/kernel_trace.h"

namespace sassim::sim {

void warm_skipped_cta(traces::CtaTrace cta, const KernelContext& kernel,
                      memsys::MemorySystem& memory);

}  // namespace sassim::sim
