#include "ground/tick_pool.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace sassim {
namespace {

// Busy-wait rounds before a waiting thread sleeps: about 20-50 us.
constexpr int kSpinRounds = 4096;

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

}  // namespace

TickPool::TickPool(unsigned threads) : cursors_(threads) {
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

TickPool::~TickPool() {
  stop_.store(true, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void TickPool::work(unsigned self) {
  const unsigned n = threads();
  for (unsigned k = 0; k < n; ++k) {
    const unsigned b = (self + k) % n;
    const std::size_t first = begin(b), size = begin(b + 1) - first;
    std::atomic<std::size_t>& taken = cursors_[b].taken;
    for (std::size_t i = taken.fetch_add(1, std::memory_order_relaxed); i < size;
         i = taken.fetch_add(1, std::memory_order_relaxed)) {
      job_(context_, first + i);
    }
  }
}

// entry_: the job's generation (low 32 bits) above bit 32, kClosed once the caller
// has done its share, and below it the workers that joined the job before that. A
// worker that wakes too late for a job leaves it alone, so the caller never waits for
// a thread the host did not schedule in time (more threads than cores).
constexpr std::uint64_t kClosed = std::uint64_t{1} << 31;
constexpr std::uint64_t kJoined = kClosed - 1;

bool TickPool::join(std::uint64_t generation) {
  std::uint64_t e = entry_.load(std::memory_order_acquire);
  while ((e >> 32) == (generation & 0xffffffffu) && (e & kClosed) == 0) {
    if (entry_.compare_exchange_weak(e, e + 1, std::memory_order_acq_rel)) return true;
  }
  return false;
}

void TickPool::worker_loop(unsigned self) {
  std::uint64_t seen = 0;
  while (true) {
    std::uint64_t g = generation_.load(std::memory_order_acquire);
    for (int spin = 0; g == seen && spin < kSpinRounds; ++spin) {
      relax();
      g = generation_.load(std::memory_order_acquire);
    }
    if (g == seen) {
      generation_.wait(seen, std::memory_order_acquire);
      continue;
    }
    seen = g;
    if (stop_.load(std::memory_order_relaxed)) return;
    if (!join(g)) continue;
    work(self);
    finished_.fetch_add(1, std::memory_order_acq_rel);
    finished_.notify_one();
  }
}

void TickPool::run(Job job, void* context, std::size_t items) {
  if (workers_.empty() || items < 2) {
    for (std::size_t i = 0; i < items; ++i) job(context, i);
    return;
  }
  job_ = job;
  context_ = context;
  items_ = items;
  for (Cursor& c : cursors_) c.taken.store(0, std::memory_order_relaxed);
  finished_.store(0, std::memory_order_relaxed);
  const std::uint64_t g = generation_.load(std::memory_order_relaxed) + 1;
  entry_.store((g & 0xffffffffu) << 32, std::memory_order_relaxed);
  generation_.store(g, std::memory_order_release);
  generation_.notify_all();
  work(0);
  const auto joined =
      static_cast<unsigned>(entry_.fetch_or(kClosed, std::memory_order_acq_rel) & kJoined);
  unsigned done = finished_.load(std::memory_order_acquire);
  for (int spin = 0; done != joined && spin < kSpinRounds; ++spin) {
    relax();
    done = finished_.load(std::memory_order_acquire);
  }
  while (done != joined) {
    finished_.wait(done, std::memory_order_acquire);
    done = finished_.load(std::memory_order_acquire);
  }
}

}  // namespace sassim
