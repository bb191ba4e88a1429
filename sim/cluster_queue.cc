#include "sim/cluster_queue.h"

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::sim {

void ClusterQueue::add(traces::CtaTrace cta) {
  const traces::Dim3& c = info_.cluster;
  const traces::Dim3& g = info_.grid;
  const std::uint64_t clusters_x = g.x / c.x, clusters_y = g.y / c.y;
  const std::uint64_t id =
      cta.id.x / c.x + clusters_x * (cta.id.y / c.y + clusters_y * (cta.id.z / c.z));
  const std::uint32_t rank = cta.id.x % c.x + c.x * (cta.id.y % c.y + c.y * (cta.id.z % c.z));
  Partial& p = partial_[id];
  if (p.by_rank.empty()) p.by_rank.resize(c.count());
  if (p.by_rank[rank]) {
    throw Error(fmt::format("{}: CTA ({},{},{}) appears twice: expected each CTA of the grid once",
                            info_.source, cta.id.x, cta.id.y, cta.id.z));
  }
  p.by_rank[rank] = std::move(cta);
  if (++p.count < p.by_rank.size()) return;
  ReadyCluster ready{id, {}};
  ready.ctas.reserve(p.by_rank.size());
  for (auto& member : p.by_rank) ready.ctas.push_back(std::move(*member));
  partial_.erase(id);
  ready_.push_back(std::move(ready));
}

ReadyCluster ClusterQueue::take() {
  ReadyCluster front = std::move(ready_.front());
  ready_.pop_front();
  return front;
}

std::size_t ClusterQueue::buffered_ctas() const {
  std::size_t n = 0;
  for (const auto& [id, p] : partial_) n += p.count;
  return n;
}

void ClusterQueue::check_all_complete() const {
  if (partial_.empty()) return;
  const auto& [id, p] = *partial_.begin();
  const traces::Dim3& c = info_.cluster;
  throw Error(fmt::format(
      "{}: the trace ended with {} of the {} CTAs of cluster {} (cluster dim ({},{},{})): "
      "expected every CTA of the grid",
      info_.source, p.count, p.by_rank.size(), id, c.x, c.y, c.z));
}

}  // namespace sassim::sim
