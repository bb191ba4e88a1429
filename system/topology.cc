#include "system/topology.h"

#include <cmath>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::system {

namespace {

// Routing weight: latency in ps, scaled so that one more hop breaks ties between paths
// of equal latency.
constexpr uint64_t kHopWeight = 1;
constexpr uint64_t kLatencyScale = 1024;

int64_t ns_to_ps(double ns) {
  return std::llround(ns * 1000.0);
}
uint64_t gb_to_bytes(double gb_per_s) {
  return static_cast<uint64_t>(std::llround(gb_per_s * 1e9));
}

}  // namespace

const char* link_kind_name(LinkKind kind) {
  switch (kind) {
    case LinkKind::kNvlink:
      return "nvlink";
    case LinkKind::kPcie:
      return "pcie";
    case LinkKind::kNetwork:
      return "network";
  }
  return "?";
}

uint32_t Topology::add_vertex(VertexKind kind, uint32_t node, std::string name) {
  const auto v =
      static_cast<uint32_t>(boost::add_vertex(VertexInfo{kind, node, std::move(name)}, graph_));
  gpu_rank_of_vertex_.push_back(-1);
  if (kind == VertexKind::kGpu) {
    gpu_rank_of_vertex_[v] = static_cast<int>(gpus_.size());
    gpus_.push_back(v);
  }
  if (node >= nodes_) {
    nodes_ = node + 1;
    nvswitch_of_node_.resize(nodes_, -1);
  }
  if (kind == VertexKind::kNvswitch) nvswitch_of_node_[node] = static_cast<int>(v);
  return v;
}

uint32_t Topology::add_link(uint32_t from, uint32_t to, LinkKind kind, uint64_t bytes_per_s,
                            int64_t latency_ps) {
  if (bytes_per_s == 0) throw Error("a link needs a bandwidth above 0");
  if (latency_ps < 0) throw Error("a link's latency cannot be negative");
  if (from >= vertex_count() || to >= vertex_count() || from == to) {
    throw Error(fmt::format("a link from vertex {} to {} joins no two vertices", from, to));
  }
  const auto id = static_cast<uint32_t>(links_.size());
  links_.push_back(Link{from, to, kind, bytes_per_s, latency_ps});
  const uint64_t weight = static_cast<uint64_t>(latency_ps) * kLatencyScale + kHopWeight;
  boost::add_edge(from, to, EdgeInfo{id, weight}, graph_);
  return id;
}

uint32_t Topology::add_duplex(uint32_t a, uint32_t b, LinkKind kind, uint64_t bytes_per_s,
                              int64_t latency_ps) {
  const uint32_t id = add_link(a, b, kind, bytes_per_s, latency_ps);
  add_link(b, a, kind, bytes_per_s, latency_ps);
  return id;
}

int Topology::gpu_rank(uint32_t vertex) const {
  return vertex < gpu_rank_of_vertex_.size() ? gpu_rank_of_vertex_[vertex] : -1;
}

int Topology::nvswitch_of(uint32_t node) const {
  return node < nvswitch_of_node_.size() ? nvswitch_of_node_[node] : -1;
}

Topology build_topology(const config::SystemConfig& s) {
  Topology topo;
  const uint32_t per_node = s.gpus_per_node();
  std::vector<std::vector<uint32_t>> gpus(s.nodes());
  for (uint32_t n = 0; n < s.nodes(); ++n) {
    for (uint32_t g = 0; g < per_node; ++g) {
      gpus[n].push_back(topo.add_vertex(VertexKind::kGpu, n, fmt::format("node{}.gpu{}", n, g)));
    }
  }
  const auto& nvl = s.nvlink();
  const double link_payload_gb = nvl.gb_per_s_per_link() * nvl.payload_efficiency();
  const int64_t nvl_ps = ns_to_ps(nvl.latency_ns());
  const uint64_t pcie_bytes = gb_to_bytes(s.pcie().gb_per_s());
  const int64_t pcie_ps = ns_to_ps(s.pcie().latency_ns());
  for (uint32_t n = 0; n < s.nodes(); ++n) {
    if (per_node < 2) break;
    if (nvl.links_per_gpu() == 0) {
      const uint32_t host =
          topo.add_vertex(VertexKind::kPcieHost, n, fmt::format("node{}.host", n));
      for (uint32_t g : gpus[n]) topo.add_duplex(g, host, LinkKind::kPcie, pcie_bytes, pcie_ps);
    } else if (s.nvswitch().present()) {
      const uint32_t sw =
          topo.add_vertex(VertexKind::kNvswitch, n, fmt::format("node{}.nvswitch", n));
      const uint64_t port = gb_to_bytes(link_payload_gb * nvl.links_per_gpu());
      const int64_t switch_ps = ns_to_ps(s.nvswitch().latency_ns());
      for (uint32_t g : gpus[n]) {
        topo.add_link(g, sw, LinkKind::kNvlink, port, nvl_ps);
        topo.add_link(sw, g, LinkKind::kNvlink, port, nvl_ps + switch_ps);
      }
    } else {
      const uint32_t links_per_pair = nvl.links_per_gpu() / (per_node - 1);
      const uint64_t pair = gb_to_bytes(link_payload_gb * links_per_pair);
      for (uint32_t a = 0; a < per_node; ++a) {
        for (uint32_t b = a + 1; b < per_node; ++b) {
          topo.add_duplex(gpus[n][a], gpus[n][b], LinkKind::kNvlink, pair, nvl_ps);
        }
      }
    }
  }
  if (s.nodes() > 1) {
    const uint32_t net = topo.add_vertex(VertexKind::kNetworkSwitch, 0, "network");
    const auto& nic = s.nic();
    const uint64_t nic_bytes = gb_to_bytes(nic.gbit_per_s() / 8.0 * nic.payload_efficiency());
    const int64_t nic_ps = ns_to_ps(nic.latency_ns());
    const int64_t switch_ps = ns_to_ps(s.network().switch_latency_ns());
    for (uint32_t n = 0; n < s.nodes(); ++n) {
      std::vector<uint32_t> nics;
      for (uint32_t k = 0; k < nic.per_node(); ++k) {
        nics.push_back(topo.add_vertex(VertexKind::kNic, n, fmt::format("node{}.nic{}", n, k)));
        topo.add_link(nics.back(), net, LinkKind::kNetwork, nic_bytes, nic_ps);
        topo.add_link(net, nics.back(), LinkKind::kNetwork, nic_bytes, nic_ps + switch_ps);
      }
      for (uint32_t g = 0; g < per_node; ++g) {
        topo.add_duplex(gpus[n][g], nics[g * nic.per_node() / per_node], LinkKind::kPcie,
                        pcie_bytes, pcie_ps);
      }
    }
  }
  return topo;
}

}  // namespace sassim::system
