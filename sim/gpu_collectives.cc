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
    const std::optional<Picos> start = port_->arrive(it->first, now);
    Started& s = started_[it->first];
    s.vertex = it->second;
    s.charge = port_->charge(it->first);
    if (scheduler_ != nullptr && s.charge.sms != 0) s.sms = scheduler_->take_sms(s.charge.sms);
    if (start) send_traffic(s, *start, *start + s.charge.time_ps);
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
    graph.mark_done(it->second.vertex);
    if (scheduler_ != nullptr) scheduler_->release_sms(it->second.sms);
    ends_.erase(end);
    it = started_.erase(it);
    ++ended;
  }
  return ended;
}

void GpuCollectives::send_traffic(Started& s, Picos begin, Picos end) {
  s.traffic = true;
  const CollectivePort::Charge& c = s.charge;
  if (hub_ == nullptr || (c.memory_read_bytes == 0 && c.memory_write_bytes == 0)) return;
  hub_->add_flow(begin, end, c.memory_read_bytes, c.memory_write_bytes);
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
      const auto s = started_.find(f.index);
      if (s == started_.end() || s->second.traffic) continue;
      const Picos start = f.end - std::min(f.end, s->second.charge.time_ps);
      send_traffic(s->second, std::max(start, next_sync_), f.end);
    }
    next_sync_ = port_->next_sync(next_sync_);
  }
}

}  // namespace sassim::sim
