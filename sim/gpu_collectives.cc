#include "sim/gpu_collectives.h"

#include <algorithm>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::sim {

void GpuCollectives::add(std::size_t order, const traces::CollectiveCommand& command) {
  if (port_ == nullptr) {
    throw Error(
        fmt::format("{}: a collective ({}) needs the other GPUs of a multi-GPU system: run the "
                    "system's trace folder (its ranks.g) with --system PRESET",
                    command.source, command.op));
  }
  waiting_.emplace(read_++, order);
}

void GpuCollectives::start_ready(const LaunchGraph& graph, Picos now) {
  for (auto it = waiting_.begin(); it != waiting_.end();) {
    if (!graph.ready(it->second)) {
      ++it;
      continue;
    }
    port_->arrive(it->first, now);
    started_.insert(*it);
    it = waiting_.erase(it);
  }
}

std::size_t GpuCollectives::finish_ended(LaunchGraph& graph, Picos now) {
  std::size_t ended = 0;
  for (auto it = started_.begin(); it != started_.end();) {
    const auto end = ends_.find(it->first);
    if (end == ends_.end() || end->second > now) {
      ++it;
      continue;
    }
    graph.mark_done(it->second);
    ends_.erase(end);
    it = started_.erase(it);
    ++ended;
  }
  return ended;
}

Picos GpuCollectives::next_sync() {
  if (port_ == nullptr) return kNever;
  if (next_sync_ == 0) next_sync_ = port_->next_sync(0);
  return next_sync_;
}

Picos GpuCollectives::next_stop() {
  Picos stop = next_sync();
  for (const auto& [index, end] : ends_) stop = std::min(stop, end);
  return stop;
}

void GpuCollectives::sync_if_due(Picos now, bool idle) {
  if (port_ == nullptr) return;
  while (now >= next_sync()) {
    for (const CollectivePort::Finished& f : port_->sync(next_sync_, idle)) {
      ends_[f.index] = core_.edge(core_.cycle_at_or_after(f.end));
    }
    next_sync_ = port_->next_sync(next_sync_);
  }
}

}  // namespace sassim::sim
