#pragma once
// Host threads that run the items of one job in parallel: the calling thread and
// `threads - 1` workers, and run() returns when every item is done. The items are cut
// into one block per thread; each thread runs its own block first (so that, job after
// job, an item's data stays in one core's caches), then takes what is left of the
// others. Workers spin briefly between jobs (a step of the engine is tens of
// microseconds), then sleep; one that wakes after the caller has finished its share
// (and taken the rest) sits the job out. Which thread runs an item is not fixed, so items must not
// depend on each other.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

namespace sassim {

class TickPool {
 public:
  // The work of one item.
  using Job = void (*)(void* context, std::size_t item);

  explicit TickPool(unsigned threads);
  ~TickPool();
  TickPool(const TickPool&) = delete;
  TickPool& operator=(const TickPool&) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }
  // Runs job(context, i) for every i < items; returns when all are done. Not reentrant.
  void run(Job job, void* context, std::size_t items);

 private:
  void work(unsigned self);
  void worker_loop(unsigned self);
  // Joins job `generation` unless the caller has already closed it.
  bool join(std::uint64_t generation);
  // Block b holds items [begin(b), begin(b + 1)); cursor_[b] counts those taken.
  std::size_t begin(unsigned block) const { return items_ * block / threads(); }
  struct alignas(64) Cursor {
    std::atomic<std::size_t> taken{0};
  };

  std::vector<std::thread> workers_;
  Job job_ = nullptr;
  void* context_ = nullptr;
  std::size_t items_ = 0;
  std::vector<Cursor> cursors_;
  std::atomic<std::uint64_t> generation_{0};  // bumped to start a job
  std::atomic<std::uint64_t> entry_{0};       // who joined the current job (tick_pool.cc)
  std::atomic<unsigned> finished_{0};         // joined workers done with it
  std::atomic<bool> stop_{false};
};

}  // namespace sassim
