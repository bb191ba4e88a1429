// Architectural state the executor works on: global memory, a CTA's shared memory and
// warps (registers, predicates, per-thread PCs, convergence barriers) and the trace
// records a warp accumulates.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "traces/emu/program.h"

namespace sassim::emu {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

// Device memory: the launch's buffers at fixed, 256-byte aligned addresses.
class GlobalMemory {
 public:
  static constexpr uint64_t kBase = 0x7f0000000000ULL;
  // Appends a zero-filled buffer; returns its address.
  uint64_t allocate(std::string name, uint64_t size_bytes);
  std::vector<uint8_t>& buffer(size_t index) { return allocations_.at(index).bytes; }
  const std::vector<uint8_t>& buffer(size_t index) const { return allocations_.at(index).bytes; }
  uint64_t address(size_t index) const { return allocations_.at(index).base; }
  size_t count() const { return allocations_.size(); }
  // The bytes at [address, address + size), or nullptr when they are not all inside
  // one buffer.
  uint8_t* find(uint64_t address, uint32_t size) {
    Allocation& last = allocations_[last_];
    if (address >= last.base && address + size <= last.base + last.bytes.size())
      return last.bytes.data() + (address - last.base);
    return find_slow(address, size);
  }

 private:
  struct Allocation {
    std::string name;
    uint64_t base = 0;
    std::vector<uint8_t> bytes;
  };
  uint8_t* find_slow(uint64_t address, uint32_t size);
  std::vector<Allocation> allocations_{Allocation{}};
  size_t last_ = 0;
  uint64_t next_ = kBase;
};

// One executed warp instruction of the trace.
struct TraceRecord {
  uint32_t inst = 0;
  uint32_t mask = 0;
  uint32_t addr_begin = 0;
  uint32_t addr_count = 0;
};

struct Warp {
  std::vector<uint32_t> r = std::vector<uint32_t>(size_t{kRegRows} * 32);  // [row][lane]
  std::array<uint32_t, kURegRows> ur{};
  std::array<uint32_t, kPredRows> p{};  // one bit per lane
  std::array<uint8_t, kPredRows> up{};
  std::array<uint32_t, 16> bssy{};  // convergence barrier masks B0..B15
  std::array<uint32_t, 32> pc{};    // per-lane instruction index while diverged
  uint32_t cur = 0;                 // instruction index while converged
  uint32_t alive = 0;               // lanes that have not exited
  uint32_t waiting = 0;             // lanes waiting at a BSYNC
  bool diverged = false;
  bool at_barrier = false;
  bool at_mbarrier = false;      // held before a try-wait on an mbarrier phase not yet complete
  bool cluster_arrived = false;  // arrived at the cluster barrier's current phase
  bool at_cluster_wait = false;  // waits for that phase to complete (UCGABAR_WAIT)
  bool done = false;
  uint32_t index = 0;  // warp in the CTA
  std::vector<TraceRecord> trace;
  std::vector<uint64_t> addrs;
  std::vector<uint8_t> local;  // 32 lanes x local bytes, allocated on first use

  uint32_t& reg(uint16_t row, unsigned lane) { return r[size_t{row} * 32 + lane]; }
  uint32_t reg(uint16_t row, unsigned lane) const { return r[size_t{row} * 32 + lane]; }
};

// A Hopper mbarrier (PTX mbarrier.*): kept beside shared memory, named by its offset.
struct Mbarrier {
  uint32_t expected = 0;  // arrivals per phase (mbarrier.init)
  uint32_t pending = 0;   // arrivals still expected in the current phase
  int64_t tx = 0;         // transaction bytes expected less bytes completed
  uint64_t phase = 0;     // phases completed
};

struct Cta {
  Dim3 id;
  uint32_t rank = 0;  // in its cluster (SR_CgaCtaId; 0 without clusters)
  std::vector<uint8_t> shared;
  uint64_t shared_high = 0;  // highest shared byte offset touched + 1
  std::vector<Warp> warps;
  std::map<uint32_t, Mbarrier> mbarriers;  // by shared-memory offset
};

// Shared addresses of sm_90 carry the cluster rank of the CTA they name in bits 24 and up
// (a shared::cta address of a CTA outside a cluster has rank 0).
inline constexpr unsigned kSharedRankShift = 24;

// What one instruction executes against.
struct ExecContext {
  GlobalMemory& global;
  Cta& cta;
  const ConstBank& bank;
  const Program& program;
  Dim3 block;
  Dim3 grid;
  uint32_t local_bytes = 0;  // per thread
  uint64_t clock = 0;        // SR_CLOCKLO: the warp instructions executed so far
  std::span<Cta> cluster{};  // the CTAs of its cluster by rank; empty: `cta` alone

  uint32_t cluster_size() const {
    return cluster.empty() ? 1 : static_cast<uint32_t>(cluster.size());
  }
  // The CTA of cluster rank `rank` (< cluster_size()).
  Cta& cta_of_rank(uint32_t rank) const { return cluster.empty() ? cta : cluster[rank]; }

  [[noreturn]] void fail(const Inst& inst, const std::string& what) const;
};

inline bool pred_value(const Warp& w, const PredSrc& p, unsigned lane) {
  const bool v = p.uniform ? w.up[p.reg] != 0 : ((w.p[p.reg] >> lane) & 1U) != 0;
  return v != p.negate;
}
// Lanes of `lanes` whose predicate holds.
inline uint32_t pred_mask(const Warp& w, const PredSrc& p, uint32_t lanes) {
  uint32_t m = p.uniform ? (w.up[p.reg] ? ~0U : 0U) : w.p[p.reg];
  if (p.negate) m = ~m;
  return m & lanes;
}

}  // namespace sassim::emu
