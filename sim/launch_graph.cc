#include "sim/launch_graph.h"

namespace sassim::sim {

std::size_t LaunchGraph::add_launch(std::int64_t stream) {
  const std::size_t v = boost::add_vertex(graph_);
  done_.push_back(false);
  auto [it, first] = last_in_stream_.try_emplace(stream, v);
  if (!first) {
    boost::add_edge(it->second, v, graph_);
    it->second = v;
  }
  return v;
}

bool LaunchGraph::ready(std::size_t launch) const {
  for (auto [e, end] = boost::in_edges(launch, graph_); e != end; ++e) {
    if (!done_[boost::source(*e, graph_)]) return false;
  }
  return true;
}

void LaunchGraph::mark_done(std::size_t launch) {
  done_[launch] = true;
}

std::vector<std::size_t> LaunchGraph::dependencies(std::size_t launch) const {
  std::vector<std::size_t> out;
  for (auto [e, end] = boost::in_edges(launch, graph_); e != end; ++e) {
    out.push_back(boost::source(*e, graph_));
  }
  return out;
}

}  // namespace sassim::sim
