// Pointer-chase latency probes (after Mei & Chu and Luo et al.): one thread follows a
// chain of indices, p = chain[p], so every load waits for the one before; the cycles
// between two clock64() reads divided by the steps is the load-to-use latency of the
// level of the hierarchy the chain's footprint fits in.
//   chase_global: the chain in global memory. The footprint picks the level: a few KiB
//                 stay in L1 after a warm-up lap, a few MiB miss L1 and hit L2, hundreds
//                 of MiB miss L2 (DRAM). One thread, one CTA.
//   chase_shared: the chain copied into shared memory by one warp, then chased by lane 0.
// The chain is a stride pattern: element i (a multiple of stride/4) holds i + stride/4,
// wrapping at the footprint.
#pragma once

#include <span>
#include <vector>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::pointer_chase {

inline constexpr std::string_view kGlobalKernel = "chase_global";
inline constexpr std::string_view kSharedKernel = "chase_shared";
inline constexpr uint32_t kSharedBlockThreads = 32;
inline constexpr uint32_t kMaxSharedFootprintBytes = 48 * 1024;

struct Problem {
  uint32_t footprint_bytes = 16 * 1024;
  uint32_t stride_bytes = 128;
  uint32_t steps = 2048;        // timed steps
  uint32_t warmup_steps = 128;  // untimed steps first (chase_global only)
  constexpr uint32_t elements() const { return footprint_bytes / 4; }
};

// Values: [FOOTPRINT_BYTES [STRIDE_BYTES [STEPS [WARMUP_STEPS]]]]; the footprint a
// multiple of the stride, the stride a multiple of 4; chase_shared takes no warm-up
// and at most 48 KiB.
Problem parse_problem(std::string_view kernel, ParamValues values);

constexpr Launch launch(std::string_view kernel, const Problem& p) {
  const bool shared = kernel == kSharedKernel;
  Launch l{.kernel = kernel,
           .grid = {1},
           .block = {shared ? kSharedBlockThreads : 1},
           .dynamic_shared_bytes = shared ? p.footprint_bytes : 0};
  l.add(buffer_arg("chain", p.footprint_bytes, Access::kRead));
  if (shared) {
    l.add(u32_arg("elements", p.elements()));
  } else {
    l.add(u32_arg("warmup_steps", p.warmup_steps));
  }
  l.add(u32_arg("steps", p.steps))
      .add(buffer_arg("out_index", 4, Access::kWrite))
      .add(buffer_arg("out_cycles", 8, Access::kWrite));
  return l;
}

std::vector<uint32_t> build_chain(const Problem& p);

// The index the chase ends on after `steps` steps from element 0.
uint32_t final_index(std::span<const uint32_t> chain, uint64_t steps);

}  // namespace sassim::kernels::pointer_chase
