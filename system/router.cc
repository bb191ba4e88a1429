#include "system/router.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/filtered_graph.hpp>

#include "ground/error.h"

namespace sassim::system {

namespace {

// Keeps the edges that leave the source or a vertex that is not a GPU.
struct NoTransitGpu {
  const Topology* topology = nullptr;
  uint32_t source = 0;
  bool operator()(const Topology::Graph::edge_descriptor& e) const {
    const auto from = static_cast<uint32_t>(boost::source(e, topology->graph()));
    return from == source || topology->vertex(from).kind != VertexKind::kGpu;
  }
};

}  // namespace

const std::vector<int64_t>& Router::tree_from(uint32_t source) {
  auto found = trees_.find(source);
  if (found != trees_.end()) return found->second;
  const Topology::Graph& g = topology_.graph();
  const boost::filtered_graph<Topology::Graph, NoTransitGpu> view(g,
                                                                  NoTransitGpu{&topology_, source});
  const std::size_t n = boost::num_vertices(g);
  std::vector<uint64_t> distance(n, std::numeric_limits<uint64_t>::max());
  boost::dijkstra_shortest_paths(
      view, source,
      boost::distance_map(distance.data()).weight_map(boost::get(&EdgeInfo::route_weight, view)));
  // Among the links that end a shortest path at v, the one from the lowest vertex id
  // (then the lowest link id): ties broken the same way whatever order Dijkstra took.
  std::vector<int64_t> tree(n, -1);
  std::vector<std::size_t> from(n, n);
  for (auto [e, end] = boost::edges(view); e != end; ++e) {
    const std::size_t u = boost::source(*e, view);
    const std::size_t v = boost::target(*e, view);
    const EdgeInfo& info = g[*e];
    if (v == source || distance[u] == std::numeric_limits<uint64_t>::max() ||
        distance[u] + info.route_weight != distance[v]) {
      continue;
    }
    if (u < from[v] || (u == from[v] && static_cast<int64_t>(info.link) < tree[v])) {
      from[v] = u;
      tree[v] = info.link;
    }
  }
  return trees_.emplace(source, std::move(tree)).first->second;
}

const std::vector<uint32_t>& Router::route(uint32_t from, uint32_t to) {
  const auto key = std::make_pair(from, to);
  auto found = routes_.find(key);
  if (found != routes_.end()) return found->second;
  if (from >= topology_.vertex_count() || to >= topology_.vertex_count()) {
    throw Error(fmt::format("no vertex {} or {} in the topology", from, to));
  }
  const std::vector<int64_t>& tree = tree_from(from);
  std::vector<uint32_t> path;
  for (uint32_t v = to; v != from;) {
    if (tree[v] < 0 || path.size() > topology_.links().size()) {
      throw Error(fmt::format("no route from {} to {}", topology_.vertex(from).name,
                              topology_.vertex(to).name));
    }
    const Link& link = topology_.link(static_cast<uint32_t>(tree[v]));
    path.push_back(static_cast<uint32_t>(tree[v]));
    v = link.from;
  }
  std::reverse(path.begin(), path.end());
  return routes_.emplace(key, std::move(path)).first->second;
}

int64_t Router::latency_ps(uint32_t from, uint32_t to) {
  int64_t total = 0;
  for (uint32_t id : route(from, to)) total += topology_.link(id).latency_ps;
  return total;
}

}  // namespace sassim::system
