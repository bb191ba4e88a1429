#include "system/plans.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "ground/error.h"

namespace sassim::system {

std::vector<uint64_t> split_bytes(uint64_t total, uint32_t parts) {
  std::vector<uint64_t> out(parts, total / parts);
  for (uint64_t i = 0; i < total % parts; ++i) ++out[i];
  return out;
}

uint32_t slice_count(uint64_t bytes, const PlanShape& shape) {
  const uint64_t slices = (bytes + shape.step_bytes - 1) / shape.step_bytes;
  return static_cast<uint32_t>(std::clamp<uint64_t>(slices, 1, shape.max_slices));
}

uint64_t wire_bytes(uint64_t payload, const PlanShape& shape) {
  return static_cast<uint64_t>(std::ceil(static_cast<double>(payload) * shape.wire_per_payload));
}

std::vector<uint32_t> ring_order(const PlanShape& shape, uint32_t channel) {
  std::vector<uint32_t> nodes;
  std::map<uint32_t, std::vector<uint32_t>> groups;
  for (uint32_t rank : shape.ranks) {
    const uint32_t node = shape.topology->vertex(shape.topology->gpu_vertex(rank)).node;
    if (!groups.contains(node)) nodes.push_back(node);
    groups[node].push_back(rank);
  }
  std::vector<uint32_t> order;
  for (uint32_t node : nodes) {
    const std::vector<uint32_t>& group = groups[node];
    for (std::size_t i = 0; i < group.size(); ++i) {
      order.push_back(group[(i + channel) % group.size()]);
    }
  }
  return order;
}

TransferPlan ring_plan(CollectiveOp op, uint64_t bytes, const PlanShape& shape) {
  const auto n = static_cast<uint32_t>(shape.ranks.size());
  uint32_t steps = n - 1;
  if (op == CollectiveOp::kAllReduce)
    steps = 2 * (n - 1);
  else if (op != CollectiveOp::kAllGather && op != CollectiveOp::kReduceScatter) {
    throw Error("the ring algorithm runs all_reduce, all_gather and reduce_scatter");
  }
  const bool reducing = op != CollectiveOp::kAllGather;
  const Topology& topo = *shape.topology;
  TransferPlan plan;
  const std::vector<uint64_t> per_channel = split_bytes(bytes, shape.channels);
  for (uint32_t c = 0; c < shape.channels; ++c) {
    const std::vector<uint32_t> order = ring_order(shape, c);
    const std::vector<uint64_t> segments = split_bytes(per_channel[c], n);
    const uint32_t k = slice_count(segments[0], shape);
    std::vector<std::vector<uint64_t>> slices;
    for (uint64_t segment : segments) slices.push_back(split_bytes(segment, k));
    std::vector<uint32_t> programs;
    for (uint32_t p = 0; p < n; ++p) programs.push_back(plan.add_program(order[p]));
    // previous[p][j]: the transfer that brought slice j of the last step to position p.
    std::vector<std::vector<int64_t>> previous(n, std::vector<int64_t>(k, -1));
    for (uint32_t s = 0; s < steps; ++s) {
      std::vector<std::vector<int64_t>> sent(n, std::vector<int64_t>(k, -1));
      for (uint32_t p = 0; p < n; ++p) {
        const uint32_t next = (p + 1) % n;
        const uint32_t segment = (p + n - s % n) % n;
        for (uint32_t j = 0; j < k; ++j) {
          const uint64_t payload = slices[segment][j];
          const Transfer t{topo.gpu_vertex(order[p]),
                           topo.gpu_vertex(order[next]),
                           payload,
                           wire_bytes(payload, shape),
                           programs[p],
                           reducing && s < n - 1};
          const int64_t dep = previous[p][j];
          sent[next][j] = dep < 0 ? plan.add(t, {}) : plan.add(t, {static_cast<uint32_t>(dep)});
        }
      }
      previous = std::move(sent);
    }
  }
  return plan;
}

TransferPlan p2p_plan(const std::vector<Flow>& flows, const PlanShape& shape) {
  const Topology& topo = *shape.topology;
  TransferPlan plan;
  for (const Flow& flow : flows) {
    const std::vector<uint64_t> per_channel = split_bytes(flow.bytes, shape.channels);
    for (uint32_t c = 0; c < shape.channels; ++c) {
      const uint32_t program = plan.add_program(flow.from_rank);
      const uint32_t k = slice_count(per_channel[c], shape);
      for (uint64_t payload : split_bytes(per_channel[c], k)) {
        plan.add(Transfer{topo.gpu_vertex(flow.from_rank), topo.gpu_vertex(flow.to_rank), payload,
                          wire_bytes(payload, shape), program, false},
                 {});
      }
    }
  }
  return plan;
}

}  // namespace sassim::system
