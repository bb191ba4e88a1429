#pragma once
// The links of a multi-GPU system as a Boost.Graph: vertices are GPUs, NVSwitches, PCIe
// host bridges, NICs and the network switch; every edge is one direction of a link with
// its payload bandwidth and latency. Built from a SystemConfig (build_topology) or by
// hand (tests).
#include <cstdint>
#include <string>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "configs/system_config.pb.h"

namespace sassim::system {

enum class VertexKind { kGpu, kNvswitch, kPcieHost, kNic, kNetworkSwitch };
enum class LinkKind { kNvlink, kPcie, kNetwork };

const char* link_kind_name(LinkKind kind);

struct VertexInfo {
  VertexKind kind = VertexKind::kGpu;
  uint32_t node = 0;
  std::string name;  // "node0.gpu3", "node1.nvswitch", "network"
};

// One direction of a link.
struct Link {
  uint32_t from = 0;  // vertex ids
  uint32_t to = 0;
  LinkKind kind = LinkKind::kNvlink;
  uint64_t bytes_per_s = 0;  // payload bandwidth
  int64_t latency_ps = 0;
};

// The edge bundle: the link's id and its routing weight (latency first, then hops).
struct EdgeInfo {
  uint32_t link = 0;
  uint64_t route_weight = 0;
};

class Topology {
 public:
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, VertexInfo, EdgeInfo>;

  uint32_t add_vertex(VertexKind kind, uint32_t node, std::string name);
  // One direction; returns the link id. Bandwidth must be > 0.
  uint32_t add_link(uint32_t from, uint32_t to, LinkKind kind, uint64_t bytes_per_s,
                    int64_t latency_ps);
  // Both directions with the same figures; returns the id of from -> to (the other is +1).
  uint32_t add_duplex(uint32_t a, uint32_t b, LinkKind kind, uint64_t bytes_per_s,
                      int64_t latency_ps);

  const Graph& graph() const { return graph_; }
  const VertexInfo& vertex(uint32_t v) const { return graph_[v]; }
  uint32_t vertex_count() const { return static_cast<uint32_t>(boost::num_vertices(graph_)); }
  const Link& link(uint32_t id) const { return links_[id]; }
  const std::vector<Link>& links() const { return links_; }
  // GPUs in the order they were added (global rank order: node-major).
  uint32_t gpu_count() const { return static_cast<uint32_t>(gpus_.size()); }
  uint32_t gpu_vertex(uint32_t rank) const { return gpus_.at(rank); }
  // The vertex id's GPU rank; -1 when it is not a GPU.
  int gpu_rank(uint32_t vertex) const;
  // The NVSwitch vertex of a node; -1 without one.
  int nvswitch_of(uint32_t node) const;
  uint32_t node_count() const { return nodes_; }

 private:
  Graph graph_;
  std::vector<Link> links_;
  std::vector<uint32_t> gpus_;
  std::vector<int> gpu_rank_of_vertex_;
  std::vector<int> nvswitch_of_node_;
  uint32_t nodes_ = 0;
};

// The topology of a validated config: per node its GPUs; an NVSwitch every GPU's NVLinks
// end on (GPU -> switch: nvlink latency; switch -> GPU: nvlink + switch latency), or
// direct NVLinks between every pair, or, without NVLink, a PCIe host bridge; with more
// than one node, NICs on each GPU's PCIe link and one network switch all NICs connect to.
Topology build_topology(const config::SystemConfig& system);

}  // namespace sassim::system
