#pragma once
// The 16 named barriers of one CTA (BAR.SYNC / BAR.RED / BAR.ARV with a barrier id
// and an optional thread count). Arrivals count whole warps: a count of N threads
// expects ceil(N / 32) warps. A barrier without a count expects every warp of the
// CTA that has not exited, so it can also complete when a warp exits.
#include <array>
#include <cstdint>

namespace sassim::sim {

class CtaBarriers {
 public:
  static constexpr unsigned kCount = 16;
  // Warp::barrier_id of a warp waiting at its cluster's barrier (sim/cluster_barrier.h).
  static constexpr unsigned kClusterBarrierId = kCount;

  void reset() { *this = CtaBarriers{}; }
  // A warp arrives at barrier `id`; `threads` is the instruction's thread count
  // (0 = all of the CTA). True when the barrier completes with this arrival; its
  // arrivals are then cleared.
  bool arrive(unsigned id, std::uint32_t threads, std::uint32_t active_warps) {
    ++arrived_[id];
    expected_[id] = threads == 0 ? 0 : (threads + 31) / 32;
    return complete(id, active_warps);
  }
  // After a warp exited: the barriers (bit i = barrier i) that are now complete.
  std::uint32_t complete_after_exit(std::uint32_t active_warps) {
    std::uint32_t done = 0;
    for (unsigned id = 0; id < kCount; ++id) {
      if (arrived_[id] != 0 && complete(id, active_warps)) done |= 1U << id;
    }
    return done;
  }

 private:
  bool complete(unsigned id, std::uint32_t active_warps) {
    const std::uint32_t expected = expected_[id] != 0 ? expected_[id] : active_warps;
    if (arrived_[id] < expected) return false;
    arrived_[id] = 0;
    return true;
  }
  std::array<std::uint32_t, kCount> arrived_{};
  std::array<std::uint32_t, kCount> expected_{};  // warps; 0 = every warp not exited
};

}  // namespace sassim::sim
