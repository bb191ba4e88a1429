#pragma once
// A bounded, timed connection between two units: a TimedQueue plus the receiver's
// doorbell. A push rings the doorbell with the time the entry becomes visible, so a
// receiver learns of new input without scanning its queues in next_event_ps().
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <utility>

#include "ground/timed_queue.h"
#include "ground/unit.h"

namespace sassim {

// Earliest time some input of its owner becomes visible; the owner resets it when it
// has looked at all its inputs (at the end of its tick). A ring also tells the engine
// that the owner's next event may have changed (ClockedUnit::mark_changed).
// Senders ticking on different host threads may ring one doorbell in the same step:
// the earliest time is kept as an atomic minimum, which is the same in any order.
struct Doorbell {
  Doorbell() = default;
  explicit Doorbell(ClockedUnit* reader) : owner(reader) {}

  ClockedUnit* owner = nullptr;  // set by the unit that reads the doorbell
  Picos earliest_ps() const { return earliest_.load(std::memory_order_relaxed); }
  // Called by the owner when it has looked at all its inputs (t: what is still pending).
  void reset(Picos t = kNever) { earliest_.store(t, std::memory_order_relaxed); }
  void ring(Picos t) {
    Picos seen = earliest_.load(std::memory_order_relaxed);
    while (t < seen && !earliest_.compare_exchange_weak(seen, t, std::memory_order_relaxed)) {
    }
    if (owner != nullptr) owner->mark_changed();
  }

 private:
  std::atomic<Picos> earliest_{kNever};
};

template <typename T>
class Link {
 public:
  Link(std::size_t capacity, Doorbell* receiver) : queue_(capacity), receiver_(receiver) {}

  std::size_t capacity() const { return queue_.capacity(); }
  std::size_t size() const { return queue_.size(); }
  bool empty() const { return queue_.empty(); }
  bool full() const { return queue_.full(); }
  bool ready(Picos now) const { return queue_.ready(now); }
  const T& front() const { return queue_.front(); }
  T pop() { return queue_.pop(); }
  Picos front_ready_ps() const { return queue_.front_ready_ps(); }
  // The i-th entry from the front (i < size()) and the time it becomes visible.
  T& at(std::size_t i) { return queue_.at(i); }
  Picos ready_ps_at(std::size_t i) const { return queue_.ready_ps_at(i); }

  // Pushes a value visible from ready_ps (at least now + 1). Callers check full().
  void push(T value, Picos now, Picos ready_ps) {
    queue_.push(std::move(value), now, ready_ps);
    if (receiver_ != nullptr) receiver_->ring(std::max(ready_ps, now + 1));
  }

 private:
  TimedQueue<T> queue_;
  Doorbell* receiver_;
};

}  // namespace sassim
