#pragma once
// A FIFO in one contiguous array that doubles when full: the storage of the timed
// queues and delay lines. Unlike std::deque it allocates nothing once warm, however
// many values stream through.
#include <cassert>
#include <cstddef>
#include <utility>
#include <vector>

namespace sassim {

template <typename T>
class RingBuffer {
 public:
  explicit RingBuffer(std::size_t initial_capacity = 4) {
    std::size_t capacity = 1;
    while (capacity < initial_capacity) capacity *= 2;
    slots_.resize(capacity);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  T& back() { return slots_[index(size_ - 1)]; }
  const T& back() const { return slots_[index(size_ - 1)]; }
  // The i-th value from the front.
  const T& operator[](std::size_t i) const { return slots_[index(i)]; }
  T& operator[](std::size_t i) { return slots_[index(i)]; }

  void push_back(T value) {
    if (size_ == slots_.size()) grow();
    slots_[index(size_)] = std::move(value);
    ++size_;
  }
  T pop_front() {
    assert(size_ > 0);
    T value = std::move(slots_[head_]);
    head_ = (head_ + 1) & (slots_.size() - 1);
    --size_;
    return value;
  }

 private:
  std::size_t index(std::size_t i) const { return (head_ + i) & (slots_.size() - 1); }
  void grow() {
    std::vector<T> bigger(slots_.size() * 2);
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = std::move(slots_[index(i)]);
    slots_ = std::move(bigger);
    head_ = 0;
  }

  std::vector<T> slots_;  // capacity is a power of two
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace sassim
