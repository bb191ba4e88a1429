#pragma once
// A bounded FIFO whose entries become visible at a ready time: the one way latency
// is modelled between units. An entry pushed at time t is never visible before t+1,
// so nothing crosses two units in one edge.
#include <cassert>
#include <cstddef>
#include <utility>

#include "ground/ring_buffer.h"
#include "ground/unit.h"

namespace sassim {

template <typename T>
class TimedQueue {
 public:
  explicit TimedQueue(std::size_t capacity = 1)
      : capacity_(capacity), entries_(capacity < kPreallocated ? capacity : kPreallocated) {}

  std::size_t capacity() const { return capacity_; }
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  bool full() const { return entries_.size() >= capacity_; }

  // Pushes a value visible from ready_ps (at least now + 1). Callers check full().
  void push(T value, Picos now, Picos ready_ps) {
    assert(!full());
    if (ready_ps <= now) ready_ps = now + 1;
    // Entries stay in ready order: a later push never overtakes an earlier one.
    if (!entries_.empty() && ready_ps < entries_.back().first) ready_ps = entries_.back().first;
    entries_.push_back({ready_ps, std::move(value)});
  }
  bool ready(Picos now) const { return !entries_.empty() && entries_.front().first <= now; }
  const T& front() const { return entries_.front().second; }
  T pop() { return entries_.pop_front().second; }
  // The i-th entry from the front and the time it becomes visible (i < size()).
  T& at(std::size_t i) { return entries_[i].second; }
  Picos ready_ps_at(std::size_t i) const { return entries_[i].first; }
  // Time the front entry becomes visible; kNever when empty.
  Picos front_ready_ps() const { return entries_.empty() ? kNever : entries_.front().first; }

 private:
  static constexpr std::size_t kPreallocated = 256;  // larger queues grow on demand, once
  std::size_t capacity_;
  RingBuffer<std::pair<Picos, T>> entries_;  // allocates nothing per push once warm
};

}  // namespace sassim
