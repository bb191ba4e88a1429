// Tree all_reduce and NCCL's binary trees (declared in system/plans.h).
#include "system/plans.h"

#include <algorithm>
#include <map>

#include "ground/error.h"

namespace sassim::system {

TreeLinks binary_tree(int rank, int n) {
  TreeLinks links;
  if (n <= 1) return links;
  // The lowest set bit of the rank (for rank 0: the power of two at or above n).
  int bit = 1;
  while (bit < n && (bit & rank) == 0) bit <<= 1;
  if (rank == 0) {
    links.child1 = bit >> 1;
    return links;
  }
  int up = (rank ^ bit) | (bit << 1);
  if (up >= n) up = rank ^ bit;
  links.parent = up;
  int low = bit >> 1;
  if (low == 0) return links;
  links.child0 = rank - low;
  while (low > 0 && rank + low >= n) low >>= 1;
  links.child1 = low == 0 ? -1 : rank + low;
  return links;
}

TreeLinks double_binary_tree(int rank, int n, int tree) {
  if (tree == 0 || n <= 1) return binary_tree(rank, n);
  // Odd n: the tree shifted by one; even n: mirrored. Every rank is then an inner node in
  // at most one of the two trees.
  const bool shift = n % 2 == 1;
  auto to = [&](int r) { return shift ? (r - 1 + n) % n : n - 1 - r; };
  auto back = [&](int r) { return r < 0 ? -1 : (shift ? (r + 1) % n : n - 1 - r); };
  const TreeLinks t = binary_tree(to(rank), n);
  return TreeLinks{back(t.parent), back(t.child0), back(t.child1)};
}

namespace {

struct GpuTree {
  std::vector<int> parent;  // per communicator position; -1: the root
  std::vector<std::vector<uint32_t>> children;
  std::vector<uint32_t> by_depth;  // positions, shallowest first
};

// The tree of channel `c` over communicator positions: a chain through each node's GPUs
// (in ring_order), node heads joined by the double binary tree.
GpuTree channel_tree(const PlanShape& shape, uint32_t c) {
  const Topology& topo = *shape.topology;
  const std::vector<uint32_t> order = ring_order(shape, c);
  std::map<uint32_t, uint32_t> position;
  for (uint32_t i = 0; i < shape.ranks.size(); ++i) position[shape.ranks[i]] = i;
  std::vector<std::vector<uint32_t>> chains;
  std::map<uint32_t, std::size_t> chain_of_node;
  for (uint32_t rank : order) {
    const uint32_t node = topo.vertex(topo.gpu_vertex(rank)).node;
    if (!chain_of_node.contains(node)) {
      chain_of_node[node] = chains.size();
      chains.emplace_back();
    }
    chains[chain_of_node[node]].push_back(position[rank]);
  }
  const std::size_t n = shape.ranks.size();
  GpuTree tree{std::vector<int>(n, -1), std::vector<std::vector<uint32_t>>(n), {}};
  const int m = static_cast<int>(chains.size());
  for (int i = 0; i < m; ++i) {
    const std::vector<uint32_t>& chain = chains[static_cast<std::size_t>(i)];
    for (std::size_t q = 1; q < chain.size(); ++q)
      tree.parent[chain[q]] = static_cast<int>(chain[q - 1]);
    const TreeLinks links = double_binary_tree(i, m, static_cast<int>(c % 2));
    if (links.parent >= 0) {
      tree.parent[chain[0]] = static_cast<int>(chains[static_cast<std::size_t>(links.parent)][0]);
    }
  }
  std::vector<uint32_t> depth(n, 0);
  uint32_t root = 0;
  for (uint32_t p = 0; p < n; ++p) {
    if (tree.parent[p] < 0)
      root = p;
    else
      tree.children[static_cast<std::size_t>(tree.parent[p])].push_back(p);
  }
  tree.by_depth.push_back(root);
  for (std::size_t i = 0; i < tree.by_depth.size(); ++i) {
    for (uint32_t child : tree.children[tree.by_depth[i]]) tree.by_depth.push_back(child);
  }
  if (tree.by_depth.size() != n) throw Error("the tree does not reach every rank");
  return tree;
}

}  // namespace

TransferPlan tree_plan(uint64_t bytes, const PlanShape& shape) {
  const Topology& topo = *shape.topology;
  const std::size_t n = shape.ranks.size();
  TransferPlan plan;
  const std::vector<uint64_t> per_channel = split_bytes(bytes, shape.channels);
  std::vector<uint32_t> sent_up(n), sent_down(n);
  std::vector<uint32_t> deps;
  deps.reserve(n);
  for (uint32_t c = 0; c < shape.channels; ++c) {
    const GpuTree tree = channel_tree(shape, c);
    std::vector<uint32_t> up(n), down(n);
    for (std::size_t p = 0; p < n; ++p) up[p] = plan.add_program(shape.ranks[p]);
    for (std::size_t p = 0; p < n; ++p) down[p] = plan.add_program(shape.ranks[p]);
    const uint32_t k = slice_count(per_channel[c], shape);
    auto vertex = [&](std::size_t p) { return topo.gpu_vertex(shape.ranks[p]); };
    const std::vector<uint64_t> slices = split_bytes(per_channel[c], k);
    for (uint64_t payload : slices) {
      const uint64_t wire = wire_bytes(payload, shape);
      // Partial sums up, deepest first: each waits for its children's.
      for (auto it = tree.by_depth.rbegin(); it != tree.by_depth.rend(); ++it) {
        const uint32_t p = *it;
        if (tree.parent[p] < 0) continue;
        deps.clear();
        for (uint32_t child : tree.children[p]) deps.push_back(sent_up[child]);
        sent_up[p] = plan.add(Transfer{vertex(p), vertex(static_cast<std::size_t>(tree.parent[p])),
                                       payload, wire, up[p], true},
                              deps);
      }
      // The result down, shallowest first.
      for (uint32_t p : tree.by_depth) {
        deps.clear();
        if (tree.parent[p] < 0) {
          for (uint32_t child : tree.children[p]) deps.push_back(sent_up[child]);
        } else {
          deps.push_back(sent_down[p]);
        }
        for (uint32_t child : tree.children[p]) {
          sent_down[child] =
              plan.add(Transfer{vertex(p), vertex(child), payload, wire, down[p], false}, deps);
        }
      }
    }
  }
  return plan;
}

}  // namespace sassim::system
