#include "memsys/l1_unit.h"

#include <algorithm>
#include <bit>
#include <cassert>

#include <fmt/format.h>

namespace sassim::memsys {
namespace {

constexpr std::uint32_t kSharedWriteBytesPerPass = 128;

unsigned count(std::uint32_t mask) {
  return static_cast<unsigned>(std::popcount(mask));
}

// Responses with data take the data path; acknowledgements of writes are headers.
bool carries_data(const MemResponse& response) {
  return expects_response(response.kind);
}

// Ways per set of the L1 data part when `data_bytes` of the unified array hold data, the
// sets fixed by the base data part (data_cache_bytes ways of config.associativity).
std::uint32_t ways_for(const config::L1Config& config, std::uint64_t base_data_bytes,
                       std::uint64_t data_bytes) {
  const std::uint64_t set_bytes = std::uint64_t{config.line_bytes()} * config.associativity();
  if (set_bytes == 0 || base_data_bytes < set_bytes) return config.associativity();
  const std::uint64_t sets = base_data_bytes / set_bytes;
  return static_cast<std::uint32_t>(data_bytes / (sets * config.line_bytes()));
}

}  // namespace

L1Unit::L1Unit(std::uint32_t sm, const config::L1Config& config, std::uint64_t data_cache_bytes,
               std::uint64_t max_data_cache_bytes, const config::TmaConfig& tma, Clock clock,
               Link<MemRequest>& to_noc, Link<MemResponse>& from_noc, Doorbell& inbox)
    : name_(fmt::format("gpu.sm[{}].l1", sm)),
      sm_(static_cast<std::uint16_t>(sm)),
      clock_(clock),
      geometry_{config.line_bytes(), config.sector_bytes()},
      banks_{config.shared_banks(), config.shared_bank_bytes()},
      hit_latency_cycles_(config.hit_latency_cycles()),
      fill_latency_cycles_(std::max(config.hit_latency_cycles(), 2u) - 2),
      shared_latency_cycles_(config.shared_latency_cycles()),
      tag_lookups_per_cycle_(config.tag_lookups_per_cycle()),
      data_bytes_per_cycle_(config.data_bytes_per_cycle()),
      write_credits_(config.write_credit_sectors()),
      unified_bytes_(config.unified_size_bytes()),
      // Without a base data part there are no sets to grow: no L1 data cache at all.
      cache_(data_cache_bytes == 0 ? 0 : max_data_cache_bytes,
             ways_for(config, data_cache_bytes, max_data_cache_bytes), config.line_bytes(), 1,
             "l1 data cache (l1.unified_size_bytes - l1.shared_memory_bytes)"),
      mshrs_(config.mshr_entries()),
      data_path_(config.data_bytes_per_cycle()),
      cache_global_loads_(config.cache_global_loads()),
      merge_bypass_reads_(config.merge_bypass_reads()),
      write_allocate_(config.write_allocate()),
      lsu_(config.lsu_queue_entries()),
      shared_(config.lsu_queue_entries()),
      to_noc_(to_noc),
      from_noc_(from_noc),
      inbox_(inbox),
      tma_(static_cast<std::uint16_t>(sm), tma, config.line_bytes(), config.sector_bytes(), clock,
           tma_port_) {
  inbox_.owner = this;
  cache_.set_active_ways(ways_for(config, data_cache_bytes, data_cache_bytes));
}

void L1Unit::set_shared_carveout(std::uint32_t shared_bytes) {
  if (!cache_.enabled() || shared_bytes > unified_bytes_) return;
  const std::uint64_t sets = cache_.sets();
  const auto ways =
      static_cast<std::uint32_t>((unified_bytes_ - shared_bytes) / (sets * geometry_.line_bytes));
  if (ways != 0 && ways != cache_.ways()) cache_.set_active_ways(ways);
}

// ---- SmMemoryPort ----------------------------------------------------------------

bool L1Unit::can_accept(Picos /*now*/) const {
  return lsu_.size() + shared_.size() < lsu_.capacity();
}

std::uint32_t L1Unit::acquire_slot() {
  if (free_slots_.empty()) {
    slots_.emplace_back();
    slots_.back().addresses.reserve(32);
    return static_cast<std::uint32_t>(slots_.size() - 1);
  }
  const std::uint32_t index = free_slots_.back();
  free_slots_.pop_back();
  return index;
}

void L1Unit::submit(const WarpMemAccess& access, Picos now) {
  assert(can_accept(now));
  const std::uint32_t index = acquire_slot();
  Slot& slot = slots_[index];
  slot.token = access.token;
  slot.async_copy = access.kind == isa::MemKind::kAsyncCopy;
  slot.bypass = access.l1_bypass;
  slot.bytes_per_thread = access.bytes_per_thread;
  slot.active_mask = access.active_mask;
  slot.addresses.assign(access.addresses.begin(), access.addresses.end());
  slot.store_kind = access.kind == isa::MemKind::kReduction ? ReqKind::kReduction : ReqKind::kWrite;
  // Local memory is always cached in L1; global data only where the GPU caches it there.
  slot.cacheable =
      (cache_global_loads_ && !access.l1_bypass) || access.space == isa::MemSpace::kLocal;
  slot.policy = access.space == isa::MemSpace::kLocal ? isa::L1Policy::kNormal : access.l1_policy;
  if (access.space == isa::MemSpace::kShared) {
    slot.path = Path::kShared;
  } else if (access.kind == isa::MemKind::kStore || access.kind == isa::MemKind::kReduction) {
    slot.path = Path::kStore;
  } else if (access.kind == isa::MemKind::kAtomic) {
    slot.path = Path::kAtomic;
  } else {
    slot.path = Path::kLoad;
  }
  slot.ack_wait = kNoAckWait;
  if (access.ack_token != kNoAckToken && slot.path == Path::kStore) {
    if (free_ack_waits_.empty()) {
      free_ack_waits_.push_back(static_cast<std::uint32_t>(ack_waits_.size()));
      ack_waits_.emplace_back();
    }
    slot.ack_wait = free_ack_waits_.back();
    free_ack_waits_.pop_back();
    ack_waits_[slot.ack_wait] = AckWait{access.ack_token, 0, false};
    ++outstanding_;  // the ack token pops too
  }
  slot.next_line = 0;
  slot.issued = false;
  slot.pending = 0;
  slot.ready_ps = 0;
  slot.submit_ps = now;
  slot.seq = next_seq_++;
  slot.lines.lines.clear();
  ++slots_in_use_;
  ++outstanding_;
  ++stats_.accesses;
  TimedQueue<std::uint32_t>& pipe = slot.path == Path::kShared ? shared_ : lsu_;
  const bool was_empty = pipe.empty();
  pipe.push(index, now, now + 1);
  if (was_empty) next_ps_ = std::min(next_ps_, pipe.front_ready_ps());
}

std::optional<std::uint32_t> L1Unit::pop_completed(Picos now) {
  if (completions_.empty() || completions_.top().time_ps > now) return std::nullopt;
  const std::uint32_t token = completions_.top().token;
  completions_.pop();
  --outstanding_;
  return token;
}

Picos L1Unit::next_completion_ps() const {
  return completions_.empty() ? kNever : completions_.top().time_ps;
}

bool L1Unit::busy() const {
  return outstanding_ > 0 || !from_noc_.empty() || mshrs_.in_use() > 0 || tma_.busy();
}

// ---- TMA -------------------------------------------------------------------------

bool L1Unit::submit_tma(const TmaCopy& copy, Picos now) {
  outstanding_ += copy.ack_token == kNoAckToken ? 1 : 2;  // tokens to pop
  tma_.submit(copy, now);
  // The unit has ticked at this edge already: the engine runs from the next one on.
  next_ps_ = std::min(next_ps_, std::max(tma_.next_event_ps(), now + 1));
  return true;
}

bool L1Unit::TmaPort::send(const MemRequest& request, Picos now) {
  if (l1_.to_noc_.full()) return false;
  l1_.to_noc_.push(request, now, now + l1_.clock_.period_ps);
  return true;
}

std::uint64_t L1Unit::TmaPort::write_shared(std::uint32_t bytes, Picos now) {
  return l1_.read_tensor_operands(bytes, now);  // the same data-path credit
}

std::uint64_t L1Unit::TmaPort::read_shared(std::uint32_t bytes, Picos now) {
  return l1_.read_tensor_operands(bytes, now);
}

void L1Unit::TmaPort::complete(std::uint32_t token, Picos done_ps) {
  l1_.completions_.push(Completion{done_ps, l1_.next_seq_++, token});
}

std::uint64_t L1Unit::read_tensor_operands(std::uint32_t bytes, Picos now) {
  data_path_.refill(now / clock_.period_ps);
  return data_path_.consume(static_cast<std::int64_t>(bytes));
}

std::uint64_t L1Unit::remote_shared_access(std::uint32_t bytes, Picos now) {
  const std::uint64_t cycle = now / clock_.period_ps;
  data_path_.refill(cycle);
  const std::uint64_t wait = data_path_.available() ? 0 : data_path_.next_available() - cycle;
  data_path_.consume(static_cast<std::int64_t>(bytes));
  return wait;
}

std::uint64_t L1Unit::remote_shared_write(std::uint32_t bytes, Picos now) {
  data_path_.refill(now / clock_.period_ps);
  return data_path_.consume(static_cast<std::int64_t>(bytes));
}

// ---- tick ------------------------------------------------------------------------

bool L1Unit::tick(std::uint64_t cycle, Picos now) {
  now_ps_ = now;
  data_path_.refill(cycle);
  bool progress = false;

  // Back to front: responses (fills) first, then the head of the LSU queue.
  response_block_ = Block::kNone;
  while (from_noc_.ready(now)) {
    if (!data_path_.available() && carries_data(from_noc_.front())) {
      response_block_ = Block::kDataPath;
      break;
    }
    const MemResponse response = from_noc_.pop();
    progress = true;
    if ((response.tag & kTmaTagBit) != 0) {
      tma_.take_response(response, now);  // charges the data path itself
      continue;
    }
    if (response.kind == ReqKind::kWrite || response.kind == ReqKind::kReduction) {
      take_acknowledgement(response, now);  // a header, no data
      continue;
    }
    const std::uint64_t extra = data_path_.consume(
        static_cast<std::int64_t>(count(response.sector_mask) * geometry_.sector_bytes));
    take_response(response, now + cycles(fill_latency_cycles_ + extra));
  }
  if (tma_.tick(now)) progress = true;

  // The two pipes after the input queue, each in order: a shared access does not wait
  // for the tag lookups, MSHRs or interconnect room of the global accesses before it.
  std::uint32_t lookups = tag_lookups_per_cycle_;
  lsu_block_ = drain(lsu_, now, lookups, progress);
  shared_block_ = drain(shared_, now, lookups, progress);
  note_stalls(lsu_block_, now);

  next_ps_ = compute_next(now);
  inbox_.reset();
  return progress;
}

void L1Unit::note_stalls(Block block, Picos now) {
  const auto note = [&](Block kind, Picos& since, std::uint64_t& cycles) {
    if (block == kind) {
      if (since == kNever) since = now;
    } else if (since != kNever) {
      cycles += (now - since) / clock_.period_ps;
      since = kNever;
    }
  };
  note(Block::kMshr, mshr_stall_since_, stats_.mshr_full_stall_cycles);
  note(Block::kWriteCredits, credit_stall_since_, stats_.write_credit_stall_cycles);
}

Picos L1Unit::compute_next(Picos now) const {
  Picos next = kNever;
  const Picos retry = now + clock_.period_ps;
  if (!from_noc_.empty()) {
    const Picos ready = from_noc_.front_ready_ps();
    next = ready > now ? ready : std::max(retry, clock_.edge(data_path_.next_available()));
  }
  for (const auto& [pipe, block] : {std::pair{&lsu_, lsu_block_}, {&shared_, shared_block_}}) {
    if (pipe->empty()) continue;
    Picos ready = pipe->front_ready_ps();
    if (ready <= now) {
      switch (block) {
        case Block::kDataPath:
          ready = std::max(retry, clock_.edge(data_path_.next_available()));
          break;
        case Block::kMshr:
        case Block::kWriteCredits:
          ready = kNever;  // a response frees an MSHR / a credit and wakes the unit
          break;
        case Block::kNone:
        case Block::kLookups:
        case Block::kInterconnect:
          ready = retry;
          break;
      }
    }
    next = std::min(next, ready);
  }
  const Picos tma = tma_.next_event_ps();
  return tma == kNever ? next : std::min(next, std::max(tma, retry));
}

// ---- responses and completion ----------------------------------------------------

void L1Unit::take_response(const MemResponse& response, Picos data_ready) {
  if (response.kind == ReqKind::kAtomic) {
    Slot& slot = slots_[response.tag];
    slot.ready_ps = std::max(slot.ready_ps, data_ready);
    --slot.pending;
    finish_if_done(response.tag);
    return;
  }
  if (cache_.enabled() && mshrs_[response.tag].fill_allocates) {
    SectorCache::Line* cached = cache_.find(response.line);
    if (cached == nullptr) {
      cached = &install(response.line);
      if (mshrs_[response.tag].fill_evict_first) cache_.demote(*cached);
    }
    if (mshrs_[response.tag].fill_evict_last) cache_.keep_last(*cached);
    cached->valid |= response.sector_mask;
  }
  auto& entry = mshrs_[response.tag];
  assert(entry.in_use && entry.line == response.line);
  entry.outstanding &= ~response.sector_mask;
  auto keep = entry.waiters.begin();
  for (auto it = entry.waiters.begin(); it != entry.waiters.end(); ++it) {
    const std::uint32_t got = it->mask & response.sector_mask;
    if (got != 0) {
      Slot& slot = slots_[it->slot];
      slot.pending -= count(got);
      slot.ready_ps = std::max(slot.ready_ps, data_ready);
      it->mask &= ~got;
      finish_if_done(it->slot);
    }
    if (it->mask != 0) *keep++ = *it;
  }
  entry.waiters.erase(keep, entry.waiters.end());
  if (entry.outstanding == 0) {
    assert(entry.waiters.empty());
    mshrs_.release(response.tag);
  }
}

void L1Unit::finish_if_done(std::uint32_t index) {
  Slot& slot = slots_[index];
  if (!slot.issued || slot.pending != 0) return;
  Picos done = std::max(slot.ready_ps, now_ps_);
  if (slot.ack_wait != kNoAckWait) {
    AckWait& wait = ack_waits_[slot.ack_wait];
    wait.sent = true;
    if (wait.remaining == 0) {  // nothing was written (no active thread)
      completions_.push(Completion{done, next_seq_++, wait.token});
      free_ack_waits_.push_back(slot.ack_wait);
    }
    slot.ack_wait = kNoAckWait;
  }
  if (slot.async_copy && !slot.bypass) {
    // A copy through the L1 (LDGSTS without .BYPASS) writes into shared memory once its data
    // is back and filled: one data-path pass per 128 bytes. A bypassing one's data went
    // from the response into shared memory in the response's own data-path pass.
    const std::uint32_t bytes = count(slot.active_mask) * slot.bytes_per_thread;
    const std::uint32_t passes =
        std::max(1u, (bytes + kSharedWriteBytesPerPass - 1) / kSharedWriteBytesPerPass);
    data_path_.consume(static_cast<std::int64_t>(passes) * data_bytes_per_cycle_);
    done += cycles(passes);
  }
  completions_.push(Completion{done, slot.seq, slot.token});
  free_slots_.push_back(index);
  --slots_in_use_;
}

// ---- reporting ---------------------------------------------------------------------

std::string L1Unit::describe_state() const {
  std::string oldest = "none";
  Picos oldest_ps = kNever;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (std::find(free_slots_.begin(), free_slots_.end(), i) != free_slots_.end()) continue;
    const Slot& s = slots_[i];
    if (s.submit_ps < oldest_ps) {
      oldest_ps = s.submit_ps;
      oldest = fmt::format("token {} submitted at {} ps, {}/{} lines issued, {} outstanding",
                           s.token, s.submit_ps, s.next_line, s.lines.lines.size(), s.pending);
    }
  }
  constexpr const char* kBlocks[] = {"none",      "tag lookups",       "data path",
                                     "mshr full", "interconnect full", "no write credit"};
  return fmt::format(
      "lsu {} + shared {} of {} (blocked: {}, {}), responses {}/{}, to interconnect {}/{}, mshr "
      "{}/{}, {} accesses in flight, {} completions unread; oldest: {}",
      lsu_.size(), shared_.size(), lsu_.capacity(), kBlocks[static_cast<int>(lsu_block_)],
      kBlocks[static_cast<int>(shared_block_)], from_noc_.size(), from_noc_.capacity(),
      to_noc_.size(), to_noc_.capacity(), mshrs_.in_use(), mshrs_.capacity(), slots_in_use_,
      completions_.size(), oldest);
}

void L1Unit::report(StatSink& sink) const {
  sink.add_counter(name_, "accesses", static_cast<double>(stats_.accesses));
  sink.add_counter(name_, "sector_accesses", static_cast<double>(stats_.sector_accesses));
  sink.add_counter(name_, "sector_hits", static_cast<double>(stats_.sector_hits));
  sink.add_counter(name_, "sector_misses", static_cast<double>(stats_.sector_misses));
  sink.add_counter(name_, "store_sectors", static_cast<double>(stats_.store_sectors));
  sink.add_counter(name_, "shared_accesses", static_cast<double>(stats_.shared_accesses));
  sink.add_counter(name_, "shared_bank_passes", static_cast<double>(stats_.shared_bank_passes));
  sink.add_counter(name_, "mshr_full_stall_cycles",
                   static_cast<double>(stats_.mshr_full_stall_cycles));
  sink.add_counter(name_, "write_credit_stall_cycles",
                   static_cast<double>(stats_.write_credit_stall_cycles));
  // Bytes charged to the data path (hits, fills, shared passes, copies, wgmma operands).
  sink.add_counter(name_, "data_path_bytes", static_cast<double>(data_path_.consumed()));
}

}  // namespace sassim::memsys
