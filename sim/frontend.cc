#include "sim/frontend.h"

#include <algorithm>

#include "sim/warp.h"

namespace sassim::sim {

Frontend::Frontend(const config::SmConfig& sm, std::uint32_t max_warps)
    : entries_(std::min(sm.frontend().ibuffer_entries(), kMaxEntries)),
      decode_(sm.frontend().decode_latency_cycles()),
      l0_hit_(sm.frontend().l0i_hit_latency_cycles()),
      l1_hit_(sm.frontend().l1i_hit_latency_cycles()),
      miss_(sm.frontend().l1i_miss_latency_cycles()),
      sub_cores_(std::max<std::uint32_t>(sm.sub_cores(), 1)),
      warps_(max_warps) {
  const config::FrontendConfig& f = sm.frontend();
  if (entries_ == 0) return;
  for (std::uint32_t s = 0; s < sub_cores_; ++s) {
    l0_.emplace_back(f.l0i_size_bytes(), f.l0i_line_bytes(), f.l0i_associativity());
  }
  l1_ = InstCache(f.l1i_size_bytes(), f.l1i_line_bytes(), f.l1i_associativity());
  taken_.assign(std::size_t{sub_cores_} * kFetchWindow, kNeverCycle);
}

void Frontend::start_warp(unsigned slot, const std::vector<isa::WarpInst>* insts,
                          const traces::StaticInstTable* statics, std::uint64_t code_base,
                          std::uint64_t cycle) {
  WarpFetch& w = warps_[slot];
  w = WarpFetch{};
  w.insts = insts;
  w.statics = statics;
  w.code_base = code_base;
  if (entries_ != 0 && insts != nullptr) fill(slot, cycle);
}

void Frontend::issued(unsigned slot, std::uint64_t cycle, std::uint64_t redirect_cycle) {
  WarpFetch& w = warps_[slot];
  ++w.head;
  if (redirect_cycle != 0) {
    ++counters_.taken_branches;
    w.resolve_until = redirect_cycle;
    w.fetched = w.head;  // the buffered fall-through instructions are discarded
  }
  if (entries_ != 0) fill(slot, redirect_cycle != 0 ? redirect_cycle : cycle + 1);
}

void Frontend::fill(unsigned slot, std::uint64_t cycle) {
  WarpFetch& w = warps_[slot];
  const auto size = static_cast<std::uint32_t>(w.insts->size());
  const unsigned sub = slot % sub_cores_;
  while (w.fetched < size && w.fetched - w.head < entries_) {
    const std::uint64_t at = reserve_fetch_cycle(sub, cycle);
    const isa::StaticInst& si = (*w.statics)[(*w.insts)[w.fetched].static_index];
    w.arrival[w.fetched % kMaxEntries] = cache_arrival(sub, w.code_base + si.pc, at) + decode_;
    ++w.fetched;
    ++counters_.fetches;
  }
}

std::uint64_t Frontend::reserve_fetch_cycle(unsigned sub, std::uint64_t cycle) {
  std::uint64_t* ring = &taken_[std::size_t{sub} * kFetchWindow];
  while (ring[cycle % kFetchWindow] == cycle) ++cycle;
  ring[cycle % kFetchWindow] = cycle;
  return cycle;
}

std::uint64_t Frontend::cache_arrival(unsigned sub, std::uint64_t address, std::uint64_t cycle) {
  InstCache& l0 = l0_[sub];
  if (l0.present()) {
    if (std::optional<std::uint64_t> line = l0.lookup(address)) {
      ++counters_.l0i_hits;
      return std::max(cycle + l0_hit_, *line);
    }
    ++counters_.l0i_misses;
  }
  std::uint64_t arrival = cycle + miss_;
  if (l1_.present()) {
    if (std::optional<std::uint64_t> line = l1_.lookup(address)) {
      ++counters_.l1i_hits;
      arrival = std::max(cycle + l1_hit_, *line);
    } else {
      ++counters_.l1i_misses;
      l1_.fill(address, arrival);
    }
  } else if (!l0.present()) {
    arrival = cycle;  // no instruction caches: only the decode latency
  }
  l0.fill(address, arrival);
  return arrival;
}

}  // namespace sassim::sim
