#include "sim/lsu.h"

#include <algorithm>

namespace sassim::sim {

Lsu::Lsu(const config::GpuConfig& config, Clock core) : clock_(core) {
  const std::uint32_t sub_cores = config.sm().sub_cores();
  // Each sub-core's memory pipe holds latency / interval instructions in flight.
  const auto& mem = config.sm().units().memory();
  const std::uint32_t per_sub_core =
      std::max<std::uint32_t>(1, (mem.latency_cycles() + mem.initiation_interval_cycles() - 1) /
                                     std::max<std::uint32_t>(1, mem.initiation_interval_cycles()));
  address_stage_ = TimedQueue<memsys::WarpMemAccess>(sub_cores * per_sub_core);
  queue_entries_ = config.sm().mio_queue().entries();
  global_entries_ = config.sm().mio_queue().global_local_entries() != 0
                        ? config.sm().mio_queue().global_local_entries()
                        : queue_entries_;
  queues_.resize(sub_cores);
}

void Lsu::enter(std::size_t sub, const isa::StaticInst& si, const memsys::WarpMemAccess& access,
                Picos now, Picos ready, std::uint64_t latency, std::uint64_t interval) {
  if (queued(si)) {
    queues_[sub].entries.push_back({access, ready, latency, std::max<std::uint64_t>(interval, 1)});
  } else {
    address_stage_.push(access, now, ready);
  }
}

bool Lsu::drain_queues(std::uint64_t cycle, Picos now) {
  bool progress = false;
  const std::size_t n = queues_.size();
  const std::size_t first = drain_first_;
  for (std::size_t k = 0; k < n && !address_stage_.full(); ++k) {
    const std::size_t s = (first + k) % n;
    Queue& q = queues_[s];
    if (q.entries.empty() || q.pipe_free > cycle) continue;
    const Queued& front = q.entries.front();
    address_stage_.push(front.access, now,
                        std::max(front.ready_floor, now + clock_.edge(front.latency)));
    q.pipe_free = cycle + front.interval;
    q.entries.pop_front();
    drain_first_ = (s + 1) % n;
    progress = true;
  }
  next_drain_ps_ = compute_next_drain();
  return progress;
}

Picos Lsu::compute_next_drain() const {
  // A queue held by a full address stage moves when the stage's front leaves, which
  // wakes the SM by itself.
  if (address_stage_.full()) return kNever;
  Picos t = kNever;
  for (const Queue& q : queues_) {
    if (!q.entries.empty()) t = std::min(t, clock_.edge(q.pipe_free));
  }
  return t;
}

bool Lsu::submit(Picos now, memsys::SmMemoryPort& port, DsmemSender& dsmem) {
  bool progress = false;
  while (address_stage_.ready(now)) {
    if (pending_[address_stage_.front().token].dsmem) {
      dsmem.send_dsmem(address_stage_.pop(), now);
    } else if (port.can_accept(now)) {
      port.submit(address_stage_.pop(), now);
    } else {
      break;
    }
    progress = true;
  }
  return progress;
}

}  // namespace sassim::sim
