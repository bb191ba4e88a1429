#include "memsys/noc_routes.h"

#include <limits>

#include <fmt/format.h>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>

#include "ground/error.h"

namespace sassim::memsys {
namespace {

// Vertices 0..sms-1 are SMs, sms..sms+slices-1 are L2 slices.
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
constexpr std::uint32_t kUnreached = std::numeric_limits<std::uint32_t>::max();

// Hop counts from every SM to every slice: direct neighbours are one hop; any SM that
// does not reach every slice directly gets a breadth-first search (never on a crossbar).
std::vector<std::uint32_t> hop_table(const Graph& g, std::uint32_t sms, std::uint32_t slices) {
  std::vector<std::uint32_t> hops(std::size_t{sms} * slices, kUnreached);
  std::vector<std::uint32_t> distance(boost::num_vertices(g));
  for (std::uint32_t sm = 0; sm < sms; ++sm) {
    std::uint32_t direct = 0;
    for (auto [it, end] = boost::adjacent_vertices(sm, g); it != end; ++it) {
      const auto v = static_cast<std::uint32_t>(*it);
      if (v >= sms) {
        hops[std::size_t{sm} * slices + (v - sms)] = 1;
        ++direct;
      }
    }
    if (direct == slices) continue;
    std::fill(distance.begin(), distance.end(), kUnreached);
    distance[sm] = 0;
    boost::breadth_first_search(g, boost::vertex(sm, g),
                                boost::visitor(boost::make_bfs_visitor(boost::record_distances(
                                    distance.data(), boost::on_tree_edge()))));
    for (std::uint32_t j = 0; j < slices; ++j) {
      const std::uint32_t d = distance[sms + j];
      if (d == kUnreached)
        throw Error(fmt::format("interconnect: SM {} cannot reach L2 slice {}", sm, j));
      hops[std::size_t{sm} * slices + j] = d;
    }
  }
  return hops;
}

}  // namespace

NocRoutes NocRoutes::crossbar(std::uint32_t sms, std::uint32_t slices, std::uint32_t partitions) {
  if (partitions == 0 || partitions > sms || partitions > slices) {
    throw Error(fmt::format("interconnect: {} L2 partitions for {} SMs and {} slices", partitions,
                            sms, slices));
  }
  Graph g(std::size_t{sms} + slices);
  for (std::uint32_t sm = 0; sm < sms; ++sm) {
    for (std::uint32_t j = 0; j < slices; ++j) boost::add_edge(sm, sms + j, g);
  }
  NocRoutes routes;
  routes.sms_ = sms;
  routes.slices_ = slices;
  routes.partitions_ = partitions;
  routes.hops_ = hop_table(g, sms, slices);
  return routes;
}

}  // namespace sassim::memsys
