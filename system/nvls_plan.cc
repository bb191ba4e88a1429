// NVLink SHARP (NVLS) collectives inside one node (declared in system/plans.h).
#include "system/plans.h"

#include "ground/error.h"

namespace sassim::system {

TransferPlan nvls_plan(CollectiveOp op, uint64_t bytes, const PlanShape& shape) {
  const Topology& topo = *shape.topology;
  const auto n = static_cast<uint32_t>(shape.ranks.size());
  const uint32_t node = topo.vertex(topo.gpu_vertex(shape.ranks[0])).node;
  for (uint32_t rank : shape.ranks) {
    if (topo.vertex(topo.gpu_vertex(rank)).node != node) {
      throw Error("nvls runs on the GPUs of one node only");
    }
  }
  if (topo.nvswitch_of(node) < 0) throw Error("nvls needs an NVSwitch");
  const auto sw = static_cast<uint32_t>(topo.nvswitch_of(node));
  const bool reduce = op == CollectiveOp::kAllReduce || op == CollectiveOp::kReduceScatter;
  const bool store = op == CollectiveOp::kAllReduce || op == CollectiveOp::kAllGather;
  if (!reduce && !store) throw Error("nvls runs all_reduce, all_gather and reduce_scatter");
  TransferPlan plan;
  const std::vector<uint64_t> per_channel = split_bytes(bytes, shape.channels);
  for (uint32_t c = 0; c < shape.channels; ++c) {
    // Per owner: a program of reducing warps and one of storing warps.
    std::vector<uint32_t> reducer(n), storer(n);
    for (uint32_t i = 0; i < n; ++i) {
      if (reduce) reducer[i] = plan.add_program(shape.ranks[i]);
      if (store) storer[i] = plan.add_program(shape.ranks[i]);
    }
    const uint32_t k = slice_count(per_channel[c], shape);
    for (uint64_t slice : split_bytes(per_channel[c], k)) {
      const std::vector<uint64_t> parts = split_bytes(slice, n);
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t owner = topo.gpu_vertex(shape.ranks[i]);
        const uint64_t wire = wire_bytes(parts[i], shape);
        std::vector<uint32_t> reads;
        int64_t reduced = -1;
        if (reduce) {
          for (uint32_t h = 0; h < n; ++h) {
            reads.push_back(plan.add(
                Transfer{topo.gpu_vertex(shape.ranks[h]), sw, parts[i], wire, reducer[i], false},
                {}));
          }
          reduced = plan.add(Transfer{sw, owner, parts[i], wire, reducer[i], false}, reads);
        }
        if (!store) continue;
        const uint32_t stored =
            reduced < 0 ? plan.add(Transfer{owner, sw, parts[i], wire, storer[i], false}, {})
                        : plan.add(Transfer{owner, sw, parts[i], wire, storer[i], false},
                                   {static_cast<uint32_t>(reduced)});
        for (uint32_t h = 0; h < n; ++h) {
          plan.add(Transfer{sw, topo.gpu_vertex(shape.ranks[h]), parts[i], wire, storer[i], false},
                   {stored});
        }
      }
    }
  }
  return plan;
}

}  // namespace sassim::system
