#pragma once
// Routes between vertices of a Topology: the path of least latency (Dijkstra over the
// graph), fewest hops among equal latencies, then, among equal ones, the path whose last
// step comes from the lowest vertex id (so routes are deterministic). Traffic never passes through
// a GPU other than its source: GPUs do not forward.
#include <cstdint>
#include <map>
#include <vector>

#include "system/topology.h"

namespace sassim::system {

class Router {
 public:
  explicit Router(const Topology& topology) : topology_(topology) {}

  // The link ids from `from` to `to`, in order. Throws sassim::Error when `to` cannot be
  // reached. The reference stays valid for the router's life.
  const std::vector<uint32_t>& route(uint32_t from, uint32_t to);
  // The sum of the route's link latencies.
  int64_t latency_ps(uint32_t from, uint32_t to);

  const Topology& topology() const { return topology_; }

 private:
  // For each vertex, the link that reaches it on the tree of shortest paths from a source
  // (-1: the source itself or unreachable).
  const std::vector<int64_t>& tree_from(uint32_t source);

  const Topology& topology_;
  std::map<uint32_t, std::vector<int64_t>> trees_;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> routes_;
};

}  // namespace sassim::system
