#pragma once
// The transfer plans of the collective algorithms (NCCL's), for the simulator.
//
// Data is split evenly over the channels; each channel runs its own ring or tree with
// one program (CTA) per GPU. A channel's data per algorithm step is cut into slices of
// at least step_bytes (one slot of the connection's buffer) and at most max_slices per
// step; each slice is forwarded as soon as it has arrived, so steps pipeline.
#include <cstdint>
#include <vector>

#include "system/collective.h"
#include "system/topology.h"
#include "system/transfer_plan.h"

namespace sassim::system {

struct PlanShape {
  const Topology* topology = nullptr;
  std::vector<uint32_t> ranks;  // GPU ranks in communicator order
  uint32_t channels = 1;
  uint64_t step_bytes = 1;
  uint32_t max_slices = 1;
  double wire_per_payload = 1.0;  // wire bytes per payload byte
};

// `total` in `parts` parts differing by at most one byte, the larger ones first.
std::vector<uint64_t> split_bytes(uint64_t total, uint32_t parts);
// Slices of a channel's step of `bytes`: ceil(bytes / step_bytes) within [1, max_slices].
uint32_t slice_count(uint64_t bytes, const PlanShape& shape);
uint64_t wire_bytes(uint64_t payload, const PlanShape& shape);

// The GPU order of channel `c`'s ring: ranks grouped by node in order of appearance, each
// node's group rotated by c (so that channels leave a node through different GPUs, NICs).
std::vector<uint32_t> ring_order(const PlanShape& shape, uint32_t channel);

// Ring all_reduce (reduce-scatter then all-gather: 2(n-1) steps), all_gather and
// reduce_scatter (n-1 steps).
TransferPlan ring_plan(CollectiveOp op, uint64_t bytes, const PlanShape& shape);
// Tree all_reduce: a chain through each node's GPUs and, across nodes, NCCL's double
// binary tree (even channels on one tree, odd on the other): partial sums go up to the
// root, the result comes down.
TransferPlan tree_plan(uint64_t bytes, const PlanShape& shape);
// NVLink SHARP inside one node: each GPU owns 1/n of every slice; all_reduce reads its
// part reduced by the switch from every GPU (multimem.ld_reduce) and stores the result
// to every GPU through the switch's multicast (multimem.st); all_gather is the store
// alone, reduce_scatter the reduction alone.
TransferPlan nvls_plan(CollectiveOp op, uint64_t bytes, const PlanShape& shape);

struct Flow {
  uint32_t from_rank = 0;  // GPU ranks
  uint32_t to_rank = 0;
  uint64_t bytes = 0;
};
// Point-to-point flows, each over `shape.channels` programs of its sender, independent.
TransferPlan p2p_plan(const std::vector<Flow>& flows, const PlanShape& shape);

// The parent and children of `rank` (0..n-1) in NCCL's binary tree over n ranks, and in
// its second tree (mirrored for even n, shifted by one for odd n). -1: none.
struct TreeLinks {
  int parent = -1;
  int child0 = -1;
  int child1 = -1;
};
TreeLinks binary_tree(int rank, int n);
TreeLinks double_binary_tree(int rank, int n, int tree);

}  // namespace sassim::system
