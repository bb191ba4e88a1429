#include "sim/frontend.h"

#include <algorithm>

#include "configs/derived.h"
#include "sim/warp.h"

namespace sassim::sim {

Frontend::Frontend(const config::GpuConfig& config, std::uint32_t max_warps)
    : entries_(std::min(config.sm().frontend().ibuffer_entries(), kMaxEntries)),
      decode_(config.sm().frontend().decode_latency_cycles()),
      l0_hit_(config.sm().frontend().l0i_hit_latency_cycles()),
      l1_hit_(config.sm().frontend().l1i_hit_latency_cycles()),
      miss_(config.sm().frontend().l1i_miss_latency_from_l2()
                ? config::l2_hit_latency_cycles(config)
                : config.sm().frontend().l1i_miss_latency_cycles()),
      sub_cores_(std::max<std::uint32_t>(config.sm().sub_cores(), 1)),
      warps_(max_warps) {
  const config::FrontendConfig& f = config.sm().frontend();
  if (entries_ == 0) return;
  for (std::uint32_t s = 0; s < sub_cores_; ++s) {
    l0_.emplace_back(f.l0i_size_bytes(), f.l0i_line_bytes(), f.l0i_associativity());
  }
  l1_ = InstCache(f.l1i_size_bytes(), f.l1i_line_bytes(), f.l1i_associativity());
  taken_.assign(std::size_t{sub_cores_} * kFetchWindow, kNeverCycle);
  if (f.stream_buffer_entries() != 0 && (l0_[0].present() || l1_.present())) {
    stream_.assign(sub_cores_, StreamBuffer(f.stream_buffer_entries()));
    stream_line_bytes_ =
        std::max<std::uint32_t>(l0_[0].present() ? f.l0i_line_bytes() : f.l1i_line_bytes(), 1);
  }
}

void Frontend::start_warp(unsigned slot, traces::WarpWindow* insts,
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
    const isa::StaticInst& si = (*w.statics)[w.insts->inst(w.fetched).static_index];
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
  const bool has_l0 = l0.present();
  if (!has_l0 && !l1_.present()) return cycle;  // no instruction caches: only the decode latency
  InstCache& first = has_l0 ? l0 : l1_;
  const std::uint32_t first_hit = has_l0 ? l0_hit_ : l1_hit_;
  if (std::optional<std::uint64_t> line = first.lookup(address)) {
    ++(has_l0 ? counters_.l0i_hits : counters_.l1i_hits);
    return std::max(cycle + first_hit, *line);
  }
  ++(has_l0 ? counters_.l0i_misses : counters_.l1i_misses);
  if (stream_.empty()) {
    const std::uint64_t arrival = below_first(has_l0, address, cycle);
    first.fill(address, arrival);
    return arrival;
  }
  StreamBuffer& stream = stream_[sub];
  const std::uint64_t line = address / stream_line_bytes_;
  std::uint64_t arrival = 0;
  if (std::optional<std::uint64_t> ready = stream.take(line)) {
    ++counters_.stream_buffer_hits;
    arrival = std::max(cycle + first_hit, *ready);
  } else {
    arrival = below_first(has_l0, address, cycle);
    stream.restart(line, cycle);
  }
  first.fill(address, arrival);
  prefetch(sub, has_l0, cycle);
  return arrival;
}

std::uint64_t Frontend::below_first(bool l0, std::uint64_t address, std::uint64_t cycle) {
  if (!l0 || !l1_.present()) return cycle + miss_;
  if (std::optional<std::uint64_t> line = l1_.lookup(address)) {
    ++counters_.l1i_hits;
    return std::max(cycle + l1_hit_, *line);
  }
  ++counters_.l1i_misses;
  l1_.fill(address, cycle + miss_);
  return cycle + miss_;
}

void Frontend::prefetch(unsigned sub, bool l0, std::uint64_t cycle) {
  StreamBuffer& stream = stream_[sub];
  while (stream.wants_line()) {
    const std::uint64_t at = stream.request_cycle(cycle);
    stream.requested(at, below_first(l0, stream.next_line() * stream_line_bytes_, at));
    ++counters_.prefetches;
  }
}

}  // namespace sassim::sim
