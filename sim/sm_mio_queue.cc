// The LSU instruction queue between each sub-core and the SM's memory pipe
// (sm.mio_queue): the warp scheduler hands memory instructions to it, one per cycle;
// the sub-core's memory pipe takes them in order at its initiation interval and
// passes them through address generation into the memory system. Shared-memory
// instructions may fill the queue; global and local ones stop at a lower watermark,
// so that shared-memory work keeps flowing while the global pipe is backed up.
#include <algorithm>

#include "sim/sm.h"
#include "sim/sub_core.h"

namespace sassim::sim {

bool Sm::uses_mio_queue(const isa::StaticInst& si) const {
  return mio_queue_entries_ != 0 && si.op.async == isa::AsyncOp::kNone;
}

bool Sm::memory_path_full(const SubCore& sub, const isa::StaticInst& si) const {
  if (!uses_mio_queue(si)) return address_stage_.full();
  const std::size_t room =
      si.op.space == isa::MemSpace::kShared ? mio_queue_entries_ : mio_global_entries_;
  return sub.mio_queue.size() >= room;
}

bool Sm::drain_mio_queues(std::uint64_t cycle, Picos now) {
  // Round robin over the sub-cores for room in address generation: the sub-core after
  // the last one served goes first.
  bool progress = false;
  const std::size_t n = sub_cores_.size();
  const std::size_t first = mio_drain_first_;
  for (std::size_t k = 0; k < n && !address_stage_.full(); ++k) {
    const std::size_t s = (first + k) % n;
    SubCore& sub = sub_cores_[s];
    if (sub.mio_queue.empty() || sub.mio_pipe_free > cycle) continue;
    const SubCore::QueuedAccess& q = sub.mio_queue.front();
    address_stage_.push(q.access, now, std::max(q.ready_floor, now + clock_.edge(q.latency)));
    sub.mio_pipe_free = cycle + q.interval;
    sub.mio_queue.pop_front();
    mio_drain_first_ = (s + 1) % n;
    progress = true;
  }
  return progress;
}

Picos Sm::next_mio_drain() const {
  // A queue held by a full address stage moves when the stage's front leaves, which
  // wakes the SM by itself.
  if (address_stage_.full()) return kNever;
  Picos t = kNever;
  for (const SubCore& sub : sub_cores_) {
    if (!sub.mio_queue.empty()) t = std::min(t, clock_.edge(sub.mio_pipe_free));
  }
  return t;
}

}  // namespace sassim::sim
