#pragma once
// Groups a kernel's CTAs, read from the trace one by one, into whole thread block
// clusters. Cluster coordinates are the CTA's divided by the cluster dimensions; its
// rank in the cluster is x fastest (%cluster_ctarank). Trace CTAs come in linear
// block order (x fastest), so a cluster taller than one row is complete only when the
// trace reaches its last row: the CTAs read meanwhile wait here. That bounds what is
// held to the CTAs of one band of clusters: grid.x x cluster.y CTAs when cluster.z is
// 1, grid.x x grid.y x cluster.z otherwise (plus one cluster being placed).
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "traces/kernel_trace.h"

namespace sassim::sim {

struct ReadyCluster {
  std::uint64_t id = 0;                // linear cluster index, x fastest
  std::vector<traces::CtaTrace> ctas;  // by rank
};

class ClusterQueue {
 public:
  explicit ClusterQueue(const traces::KernelInfo& info) : info_(info) {}

  // Files a CTA under its cluster. Throws sassim::Error for a CTA read twice.
  void add(traces::CtaTrace cta);
  bool has_ready() const { return !ready_.empty(); }
  // The oldest complete cluster (has_ready() must hold).
  ReadyCluster take();
  // CTAs waiting for the rest of their cluster.
  std::size_t buffered_ctas() const;
  // The trace ended: throws sassim::Error naming the first incomplete cluster, if any.
  void check_all_complete() const;

 private:
  struct Partial {
    std::vector<std::optional<traces::CtaTrace>> by_rank;
    std::uint32_t count = 0;
  };
  const traces::KernelInfo& info_;
  std::map<std::uint64_t, Partial> partial_;  // by cluster id
  std::deque<ReadyCluster> ready_;            // in completion order
};

}  // namespace sassim::sim
