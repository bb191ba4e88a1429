#pragma once
// A CTA resident on an SM: its trace, resources, warps, barriers and cluster (sim/sm.h).
#include <cstdint>
#include <vector>

#include "sim/barriers.h"
#include "sim/cluster_barrier.h"
#include "sim/kernel_context.h"
#include "traces/kernel_trace.h"

namespace sassim::sim {

struct CtaSlot {
  bool used = false;
  const KernelContext* kernel = nullptr;
  traces::CtaTrace trace;
  CtaResources resources;
  std::vector<unsigned> warp_slots;
  std::uint32_t active_warps = 0;  // warps with instructions left (can reach a barrier)
  CtaBarriers barriers;
  std::uint32_t finished_warps = 0;
  ClusterMembership cluster;
  // The phases of the cluster barrier the SM has seen completed and the resume cycle of
  // the last.
  std::uint64_t cluster_phases = 0, cluster_resume = 0;
  // A CTA of a launched cluster, whose barrier the SM reaches over the SM-to-SM network;
  // otherwise a cluster of one, its barrier made by the SM (sim/sm_cluster.cc).
  bool networked() const { return kernel->info->cluster.count() > 1; }
};

}  // namespace sassim::sim
