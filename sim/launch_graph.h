#pragma once
// The dependency graph of a workload's kernel launches, a Boost.Graph: a launch
// depends on the previous launch of its CUDA stream, so launches of different streams
// may run concurrently. (Memory copies are applied by the GPU between launches with
// everything before them finished, like cudaMemcpy on the legacy default stream.)
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

namespace sassim::sim {

class LaunchGraph {
 public:
  // Adds the next launch in trace order; returns its vertex.
  std::size_t add_launch(std::int64_t stream);
  // True when every launch it depends on is done.
  bool ready(std::size_t launch) const;
  void mark_done(std::size_t launch);
  std::vector<std::size_t> dependencies(std::size_t launch) const;
  std::size_t size() const { return boost::num_vertices(graph_); }

 private:
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  Graph graph_;
  std::vector<bool> done_;
  std::unordered_map<std::int64_t, std::size_t> last_in_stream_;
};

}  // namespace sassim::sim
