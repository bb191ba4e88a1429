#pragma once
// An unbounded FIFO of values with the time each may leave: the fixed-latency
// pipeline inside one unit (its occupancy is bounded by what feeds it). Unlike a
// TimedQueue it may hold a value that leaves in the same edge it entered.
#include <cassert>
#include <utility>

#include "ground/ring_buffer.h"
#include "ground/unit.h"

namespace sassim {

template <typename T>
class DelayLine {
 public:
  // Values must be pushed in non-decreasing order of their leave times.
  void push(T value, Picos leave_ps) {
    assert(entries_.empty() || entries_.back().first <= leave_ps);
    entries_.push_back({leave_ps, std::move(value)});
  }
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }
  bool ready(Picos now) const { return !entries_.empty() && entries_.front().first <= now; }
  const T& front() const { return entries_.front().second; }
  T pop() { return entries_.pop_front().second; }
  Picos front_ready_ps() const { return entries_.empty() ? kNever : entries_.front().first; }

 private:
  RingBuffer<std::pair<Picos, T>> entries_;
};

}  // namespace sassim
