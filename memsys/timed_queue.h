#pragma once
// A bounded FIFO whose entries become visible at a ready time: the one way latency
// is modelled between units. An entry pushed at time t is never visible before t+1,
// so nothing crosses two units in one edge.
#include <cassert>
#include <cstddef>
#include <deque>
#include <utility>

#include "memsys/unit.h"

namespace sassim {

template <typename T>
class TimedQueue {
 public:
  explicit TimedQueue(std::size_t capacity = 1) : capacity_(capacity) {}

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
    entries_.emplace_back(ready_ps, std::move(value));
  }
  bool ready(Picos now) const { return !entries_.empty() && entries_.front().first <= now; }
  const T& front() const { return entries_.front().second; }
  T pop() {
    T value = std::move(entries_.front().second);
    entries_.pop_front();
    return value;
  }
  // Time the front entry becomes visible; kNever when empty.
  Picos front_ready_ps() const { return entries_.empty() ? kNever : entries_.front().first; }

 private:
  std::size_t capacity_;
  std::deque<std::pair<Picos, T>> entries_;
};

}  // namespace sassim
