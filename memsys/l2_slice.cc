#include "memsys/l2_slice.h"

#include <algorithm>
#include <bit>
#include <cassert>

#include <fmt/format.h>

namespace sassim::memsys {
namespace {

unsigned count(std::uint32_t mask) {
  return static_cast<unsigned>(std::popcount(mask));
}

}  // namespace

L2Slice::L2Slice(std::uint32_t index, const config::L2Config& config, Clock clock,
                 const AddressMap& map, Link<MemRequest>& in, Link<DramResponse>& fills,
                 Link<MemResponse>& out, std::span<Link<DramRequest>* const> channels,
                 Doorbell& inbox, L2HomeLinks homes)
    : name_(fmt::format("gpu.l2.slice[{}]", index)),
      index_(index),
      clock_(clock),
      map_(map),
      sector_bytes_(config.sector_bytes()),
      block_sectors_(
          std::max<std::uint32_t>(config.fetch_granularity_bytes() / config.sector_bytes(), 1)),
      merge_queued_reads_(config.merge_queued_reads()),
      merge_window_(config.merge_window_entries()),
      partial_write_rmw_(config.partial_write_read_modify_write()),
      hit_pipeline_ps_((config.hit_latency_cycles() - 1) * clock.period_ps),
      cache_(config.size_bytes() / config.slices(), config.associativity(), config.line_bytes(),
             config.slices(),
             fmt::format("l2 (one of l2.slices = {} slices of l2.size_bytes)", config.slices()),
             config.set_index() == "xor" ? SectorCache::SetIndex::kXor
                                         : SectorCache::SetIndex::kLinear),
      mshrs_(config.mshr_entries()),
      bandwidth_(config.slice_bytes_per_cycle()),
      in_(in),
      fills_(fills),
      out_(out),
      channels_(channels),
      my_channels_(map.channels_of_slice(index)),
      outboxes_(my_channels_.size()),
      // Reads: at most one per sector of each MSHR; as many writebacks again.
      outbox_capacity_(std::size_t{config.mshr_entries()} *
                           (config.line_bytes() / config.sector_bytes()) +
                       config.mshr_entries()),
      inbox_(inbox),
      homes_(homes) {
  inbox_.owner = this;
}

void L2Slice::send(DramRequest request, Picos now) {
  const std::uint32_t slot = map_.channel_slot(index_, request.line);
  Link<DramRequest>& link = *channels_[my_channels_[slot]];
  if (outboxes_[slot].empty() && !link.full()) {
    link.push(request, now, now + 1);
    return;
  }
  outboxes_[slot].push_back(request);
  ++outbox_requests_;
}

bool L2Slice::drain_outboxes(Picos now) {
  if (outbox_requests_ == 0) return false;
  bool progress = false;
  for (std::size_t slot = 0; slot < outboxes_.size(); ++slot) {
    Link<DramRequest>& link = *channels_[my_channels_[slot]];
    while (!outboxes_[slot].empty() && !link.full()) {
      DramRequest request = outboxes_[slot].pop_front();
      request.sent_ps = now;  // DRAM latency counts from reaching the channel's queue
      link.push(request, now, now + 1);
      --outbox_requests_;
      progress = true;
    }
  }
  return progress;
}

void L2Slice::fetch_from_home(std::uint64_t line, std::uint32_t sectors, std::uint32_t entry,
                              Picos now) {
  stats_.fetched_sectors += count(sectors);
  const MemRequest request{.line = line,
                           .sector_mask = sectors,
                           .tag = entry,
                           .sm = static_cast<std::uint16_t>(index_),
                           .kind = ReqKind::kRead,
                           .from_slice = true};
  Link<MemRequest>& link = *homes_.slices[map_.slice_of(line)];
  if (home_fetches_.empty() && !link.full()) {
    link.push(request, now, now + homes_.latency_ps);
    return;
  }
  home_fetches_.push_back(request);
}

bool L2Slice::drain_home_fetches(Picos now) {
  bool progress = false;
  while (!home_fetches_.empty()) {
    Link<MemRequest>& link = *homes_.slices[map_.slice_of(home_fetches_[0].line)];
    if (link.full()) break;  // in order: a fetch never overtakes an earlier one
    link.push(home_fetches_.pop_front(), now, now + homes_.latency_ps);
    progress = true;
  }
  return progress;
}

std::uint64_t L2Slice::data_bytes(std::uint32_t mask) const {
  return std::uint64_t{sector_bytes_} * count(mask);
}

std::uint32_t L2Slice::fetch_blocks(std::uint32_t mask) const {
  if (block_sectors_ <= 1) return mask;
  const auto block = static_cast<std::uint32_t>((std::uint64_t{1} << block_sectors_) - 1);
  std::uint32_t blocks = 0;
  for (std::uint32_t first = 0; first < 32 && (mask >> first) != 0; first += block_sectors_) {
    if ((mask & (block << first)) != 0) blocks |= block << first;
  }
  return blocks;
}

std::uint64_t L2Slice::request_cost(const MemRequest& request) const {
  const std::uint64_t bytes = data_bytes(request.sector_mask);
  const std::uint64_t partial = data_bytes(request.sector_mask & ~request.full_mask);
  if (request.kind != ReqKind::kWrite || !partial_write_rmw_ || partial == 0) return bytes;
  // The read of the partial sectors and their write-back each take the array for whole
  // cycles.
  const auto width = static_cast<std::uint64_t>(bandwidth_.per_unit());
  const std::uint64_t pass = (partial + width - 1) / width * width;
  return bytes - partial + 2 * pass;
}

void L2Slice::pass_through(const MemRequest& request, Picos now) {
  bandwidth_.refill(now / clock_.period_ps);
  // Passing on, not merging: a partial write is read, merged and written back where the
  // line is homed.
  bandwidth_.consume(static_cast<std::int64_t>(data_bytes(request.sector_mask)));
  stats_.passed_sectors += count(request.sector_mask);
}

bool L2Slice::busy() const {
  return !in_.empty() || !fills_.empty() || !pipeline_.empty() || !handed_on_.empty() ||
         mshrs_.in_use() > 0 || outbox_requests_ > 0 || !home_fetches_.empty();
}

bool L2Slice::tick(std::uint64_t cycle, Picos now) {
  bandwidth_.refill(cycle);
  // Back to front: requests waiting for DRAM queues first, then fills (they free
  // MSHRs) before new requests look for one.
  bool progress = drain_outboxes(now);
  progress |= drain_home_fetches(now);
  fill_block_ = Block::kNone;
  while (fills_.ready(now)) {
    if (!bandwidth_.available()) {
      fill_block_ = Block::kBandwidth;
      break;
    }
    fill_block_ = handle_fill(fills_.front(), now);
    if (fill_block_ != Block::kNone) break;
    fills_.pop();
    progress = true;
  }
  request_block_ = Block::kNone;
  while (in_.ready(now)) {
    if (in_.front().answered) {
      in_.pop();
      progress = true;
      continue;
    }
    if (!bandwidth_.available()) {
      request_block_ = Block::kBandwidth;
      break;
    }
    request_block_ = handle_request(in_.front(), now);
    if (request_block_ != Block::kNone) break;
    in_.pop();
    progress = true;
  }
  bool out_blocked = false;
  for (DelayLine<MemResponse>* source : {&handed_on_, &pipeline_}) {
    while (source->ready(now)) {
      if (out_.full()) {
        out_blocked = true;
        break;
      }
      out_.push(source->pop(), now, now + clock_.period_ps);
      progress = true;
    }
  }

  Picos next = outbox_requests_ > 0 || !home_fetches_.empty() ? now + clock_.period_ps : kNever;
  if (!pipeline_.empty() || !handed_on_.empty()) {
    next = std::min(next, out_blocked
                              ? now + clock_.period_ps
                              : std::min(pipeline_.front_ready_ps(), handed_on_.front_ready_ps()));
  }
  if (!fills_.empty()) {
    Picos ready = fills_.front_ready_ps();
    next = std::min(next, ready > now ? ready : wait_time(fill_block_, now));
  }
  if (!in_.empty()) {
    Picos ready = in_.front_ready_ps();
    next = std::min(next, ready > now ? ready : wait_time(request_block_, now));
  }
  next_ps_ = next;
  inbox_.reset();
  return progress;
}

Picos L2Slice::wait_time(Block block, Picos now) const {
  switch (block) {
    case Block::kBandwidth:
      return clock_.edge(bandwidth_.next_available());
    case Block::kMshr:
      return kNever;  // a fill frees one; fills have their own event
    case Block::kDram:
    case Block::kNone:
      break;
  }
  return now + clock_.period_ps;
}

bool L2Slice::can_allocate(std::uint64_t line) const {
  const SectorCache::Victim victim = cache_.victim_for(line);
  return !victim.present || victim.dirty == 0 || can_send(victim.line);
}

SectorCache::Line& L2Slice::allocate(std::uint64_t line, Picos now) {
  SectorCache::Victim victim;
  SectorCache::Line& l = cache_.allocate(line, &victim);
  if (victim.present && victim.dirty != 0) {
    send(DramRequest{.line = victim.line,
                     .sent_ps = now,
                     .sector_mask = victim.dirty,
                     .tag = 0,
                     .slice = static_cast<std::uint16_t>(index_),
                     .write = true},
         now);
    stats_.writebacks += count(victim.dirty);
  }
  return l;
}

L2Slice::Block L2Slice::handle_request(const MemRequest& request, Picos now) {
  SectorCache::Line* cached = cache_.find(request.line);
  const std::uint32_t mask = request.sector_mask;
  if (request.kind == ReqKind::kWrite) {
    if (cached == nullptr && !can_allocate(request.line)) return Block::kDram;
    const std::uint32_t present = cached != nullptr ? (cached->valid | cached->dirty) : 0;
    if (cached == nullptr) cached = &allocate(request.line, now);
    cache_.touch(*cached);
    cached->valid |= request.full_mask;
    cached->dirty |= mask;
    stats_.sector_accesses += count(mask);
    stats_.sector_hits += count(mask & present);
    stats_.sector_misses += count(mask & ~present);
    bandwidth_.consume(static_cast<std::int64_t>(request_cost(request)));
    if (request.acknowledge) {
      pipeline_.push(MemResponse{request.line, mask, request.tag, request.sm, request.kind},
                     now + hit_pipeline_ps_);
    }
    return Block::kNone;
  }

  const std::uint32_t valid = cached != nullptr ? cached->valid : 0;
  const std::uint32_t missing = mask & ~valid;
  const Waiter waiter{missing,
                      mask,
                      request.tag,
                      request.sm,
                      request.kind,
                      request.acknowledge,
                      request.from_slice,
                      request.far};
  if (missing == 0) {
    stats_.sector_accesses += count(mask);
    stats_.sector_hits += count(mask);
    if (request.kind != ReqKind::kRead) ++stats_.atomics;
    complete(waiter, request.line, cached, now, false, mask);
    if (merge_queued_reads_ && request.kind == ReqKind::kRead)
      answer_queued_reads(request.line, valid, now);
    return Block::kNone;
  }
  std::uint32_t entry = mshrs_.find(request.line);
  if (entry == MshrTable<Waiter>::kNone && mshrs_.full()) return Block::kMshr;
  const std::uint32_t outstanding =
      entry != MshrTable<Waiter>::kNone ? mshrs_[entry].outstanding : 0;
  // fetch_blocks(0) is 0: nothing to fetch when every missing sector is on its way.
  const std::uint32_t fetch = fetch_blocks(missing & ~outstanding) & ~valid & ~outstanding;
  // A far line's copy fetches from its home slice, any other line from DRAM.
  const bool far = far_line(request.line);
  if (fetch != 0 && !(far ? home_fetches_.size() < outbox_capacity_ : can_send(request.line)))
    return Block::kDram;

  if (entry == MshrTable<Waiter>::kNone) entry = mshrs_.allocate(request.line, now);
  if (fetch != 0) {
    if (far) {
      fetch_from_home(request.line, fetch, entry, now);
    } else {
      send(DramRequest{.line = request.line,
                       .sent_ps = now,
                       .sector_mask = fetch,
                       .tag = entry,
                       .slice = static_cast<std::uint16_t>(index_),
                       .write = false},
           now);
    }
    mshrs_[entry].outstanding |= fetch;
  }
  mshrs_[entry].waiters.push_back(waiter);
  if (cached != nullptr) cache_.touch(*cached);
  stats_.sector_accesses += count(mask);
  stats_.sector_hits += count(mask & valid);
  stats_.sector_misses += count(missing);
  if (request.kind != ReqKind::kRead) ++stats_.atomics;
  return Block::kNone;
}

void L2Slice::answer_queued_reads(std::uint64_t line, std::uint32_t valid, Picos now) {
  // Index 0 is the read being answered; the search sees merge_window_ entries behind it.
  const std::size_t last = merge_window_ == 0 ? in_.size() - 1 : merge_window_;
  for (std::size_t i = 1; i <= last && i < in_.size() && in_.ready_ps_at(i) <= now; ++i) {
    MemRequest& queued = in_.at(i);
    if (queued.line != line || queued.answered) continue;
    if (queued.kind != ReqKind::kRead) return;  // later reads see what it writes
    if ((queued.sector_mask & ~valid) != 0) continue;
    queued.answered = true;
    ++stats_.merged_reads;
    pipeline_.push(MemResponse{line, queued.sector_mask, queued.tag, queued.sm, queued.kind,
                               queued.from_slice, queued.far},
                   now + hit_pipeline_ps_);
  }
}

L2Slice::Block L2Slice::handle_fill(const DramResponse& fill, Picos now) {
  SectorCache::Line* cached = cache_.find(fill.line);
  if (cached == nullptr && !can_allocate(fill.line)) return Block::kDram;
  if (cached == nullptr) cached = &allocate(fill.line, now);
  cache_.touch(*cached);
  cached->valid |= fill.sector_mask;

  // A far line's data has come through its home slice's hit pipeline: it is handed on.
  const bool hand_on = far_line(fill.line);
  auto& entry = mshrs_[fill.tag];
  assert(entry.in_use && entry.line == fill.line);
  entry.outstanding &= ~fill.sector_mask;
  auto keep = entry.waiters.begin();
  // With merge_queued_reads, the reads this fill completes share one read-out of their
  // sectors, as reads answered from the queue share a hit's.
  std::uint32_t read_out = 0;
  for (auto it = entry.waiters.begin(); it != entry.waiters.end(); ++it) {
    it->pending &= ~fill.sector_mask;
    if (it->pending == 0) {
      std::uint32_t charged = it->mask;
      if (merge_queued_reads_ && it->kind == ReqKind::kRead) {
        charged &= ~read_out;
        read_out |= it->mask;
      }
      complete(*it, fill.line, cached, now, hand_on, charged);
    } else {
      *keep++ = *it;
    }
  }
  entry.waiters.erase(keep, entry.waiters.end());
  if (entry.outstanding == 0) {
    assert(entry.waiters.empty());
    mshrs_.release(fill.tag);
  }
  return Block::kNone;
}

// A request whose sectors are all valid: executes it (atomics write their sectors)
// and answers it through the hit pipeline.
void L2Slice::complete(const Waiter& waiter, std::uint64_t line, SectorCache::Line* cached,
                       Picos now, bool hand_on, std::uint32_t charged) {
  if (cached != nullptr) {
    cache_.touch(*cached);
    if (waiter.kind != ReqKind::kRead) cached->dirty |= waiter.mask;
  }
  bandwidth_.consume(static_cast<std::int64_t>(data_bytes(charged)));
  if (expects_response(waiter.kind) || waiter.acknowledge) {
    const MemResponse response{line,        waiter.mask,       waiter.tag, waiter.sm,
                               waiter.kind, waiter.from_slice, waiter.far};
    if (hand_on) {
      handed_on_.push(response, now);
    } else {
      pipeline_.push(response, now + hit_pipeline_ps_);
    }
  }
}

void L2Slice::install_clean(std::uint64_t line, std::uint32_t sectors) {
  SectorCache::Line* cached = cache_.find(line);
  if (cached == nullptr) {
    cached = &cache_.allocate(line, nullptr);
  }
  cache_.touch(*cached);
  cached->valid |= sectors;
}

void L2Slice::warm(std::uint64_t line, std::uint32_t sectors, std::uint32_t full_sectors,
                   bool write) {
  if (!cache_.enabled() || mshrs_.find(line) != MshrTable<Waiter>::kNone) return;
  SectorCache::Line* cached = cache_.find(line);
  if (cached == nullptr) {
    const SectorCache::Victim victim = cache_.victim_for(line);
    if (victim.present && mshrs_.find(victim.line) != MshrTable<Waiter>::kNone) return;
    cached = &cache_.allocate(line, nullptr);
  }
  cache_.touch(*cached);
  if (write) {
    cached->valid |= full_sectors;
    cached->dirty |= sectors;
  } else {
    cached->valid |= fetch_blocks(sectors & ~cached->valid) | sectors;
  }
}

bool L2Slice::replica_holds(std::uint64_t line, std::uint32_t sectors) {
  SectorCache::Line* copy = cache_.find(line);
  if (copy == nullptr || (copy->valid & sectors) != sectors) return false;
  cache_.touch(*copy);
  return true;
}

void L2Slice::install_replica(std::uint64_t line, std::uint32_t sectors) {
  if (!cache_.enabled()) return;
  SectorCache::Line* copy = cache_.find(line);
  if (copy == nullptr) {
    const SectorCache::Victim victim = cache_.victim_for(line);
    if (victim.present &&
        (victim.dirty != 0 || mshrs_.find(victim.line) != MshrTable<Waiter>::kNone)) {
      return;
    }
    copy = &cache_.allocate(line, nullptr);
  }
  cache_.touch(*copy);
  copy->valid |= sectors;
}

std::string L2Slice::describe_state() const {
  std::string oldest = "none";
  Picos oldest_ps = kNever;
  for (std::uint32_t i : mshrs_.active()) {
    const auto& e = mshrs_[i];
    if (e.allocated_ps < oldest_ps) {
      oldest_ps = e.allocated_ps;
      oldest = fmt::format("line {:#x} since {} ps, sectors {:#x} outstanding, {} waiters", e.line,
                           e.allocated_ps, e.outstanding, e.waiters.size());
    }
  }
  const std::string head =
      in_.empty() ? "" : fmt::format(" (head ready at {} ps)", in_.front_ready_ps());
  return fmt::format(
      "requests {}/{}{}, fills {}/{}, pipeline {}, mshr {}/{}, waiting for DRAM queues {}, oldest "
      "miss: {}",
      in_.size(), in_.capacity(), head, fills_.size(), fills_.capacity(), pipeline_.size(),
      mshrs_.in_use(), mshrs_.capacity(), outbox_requests_, oldest);
}

void L2Slice::report(StatSink& sink) const {
  sink.add_counter(name_, "sector_accesses", static_cast<double>(stats_.sector_accesses));
  sink.add_counter(name_, "sector_hits", static_cast<double>(stats_.sector_hits));
  sink.add_counter(name_, "sector_misses", static_cast<double>(stats_.sector_misses));
  sink.add_counter(name_, "writebacks", static_cast<double>(stats_.writebacks));
  sink.add_counter(name_, "passed_sectors", static_cast<double>(stats_.passed_sectors));
  if (!homes_.slices.empty())
    sink.add_counter(name_, "fetched_sectors", static_cast<double>(stats_.fetched_sectors));
  sink.add_counter(name_, "atomics", static_cast<double>(stats_.atomics));
  sink.add_counter(name_, "merged_reads", static_cast<double>(stats_.merged_reads));
  // Bytes charged to the slice's data bandwidth (l2.slice_bytes_per_cycle).
  sink.add_counter(name_, "data_bytes", static_cast<double>(bandwidth_.consumed()));
}

}  // namespace sassim::memsys
