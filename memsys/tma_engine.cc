#include "memsys/tma_engine.h"

#include <algorithm>
#include <bit>

namespace sassim::memsys {

TmaEngine::TmaEngine(std::uint16_t sm, const config::TmaConfig& config, std::uint32_t line_bytes,
                     std::uint32_t sector_bytes, Clock clock, TmaNeighbours& neighbours)
    : sm_(sm),
      clock_(clock),
      setup_cycles_(config.setup_latency_cycles()),
      line_bytes_(line_bytes),
      sector_bytes_(sector_bytes),
      issue_(config.bytes_per_cycle()),
      neighbours_(neighbours) {}

std::uint32_t TmaEngine::acquire_slot() {
  if (free_.empty()) {
    copies_.emplace_back();
    return static_cast<std::uint32_t>(copies_.size() - 1);
  }
  const std::uint32_t slot = free_.back();
  free_.pop_back();
  return slot;
}

void TmaEngine::submit(const TmaCopy& copy, Picos now) {
  const std::uint32_t slot = acquire_slot();
  Copy& c = copies_[slot];
  c.token = copy.token;
  c.kind = copy.kind;
  c.start_ps = now + clock_.edge(setup_cycles_);
  c.sectors.clear();
  c.next = 0;
  c.pending = 0;
  c.ack_token = copy.kind == TmaKind::kStore || copy.kind == TmaKind::kReduction ? copy.ack_token
                                                                                 : kNoAckToken;
  c.unacked = 0;
  c.done_ps = 0;
  if (copy.bytes > 0 && !copy.transfers.empty()) {
    const std::uint64_t n = copy.transfers.size();
    const std::uint64_t each = copy.bytes / n;
    for (std::uint64_t i = 0; i < n; ++i) {
      // The last transfer takes what the even split leaves.
      const std::uint64_t len = i + 1 == n ? copy.bytes - each * (n - 1) : each;
      if (len == 0) continue;
      const std::uint64_t first = copy.transfers[i] / sector_bytes_;
      const std::uint64_t last = (copy.transfers[i] + len - 1) / sector_bytes_;
      for (std::uint64_t s = first; s <= last; ++s) {
        if (c.sectors.empty() || c.sectors.back() != s) c.sectors.push_back(s);
      }
    }
  }
  ++stats_.copies;
  ++in_flight_;
  queue_.push_back(slot);
}

void TmaEngine::finish(std::uint32_t slot, Picos done_ps) {
  const Copy& c = copies_[slot];
  neighbours_.complete(c.token, done_ps);
  if (c.ack_token == kNoAckToken) {
    --in_flight_;
  } else if (c.unacked == 0) {  // an empty copy, or every write acknowledged already
    finish_acks(slot, done_ps);
  }
}

void TmaEngine::finish_acks(std::uint32_t slot, Picos done_ps) {
  neighbours_.complete(copies_[slot].ack_token, done_ps);
  --in_flight_;
}

bool TmaEngine::tick(Picos now) {
  blocked_ = false;
  last_tick_ps_ = now;
  bool progress = false;
  issue_.refill(now / clock_.period_ps);
  while (!queue_.empty()) {
    const std::uint32_t slot = queue_.front();
    Copy& c = copies_[slot];
    if (c.start_ps > now) break;
    if (c.next == c.sectors.size()) {  // an empty copy
      queue_.pop_front();
      finish(slot, now);
      free_.push_back(slot);
      progress = true;
      continue;
    }
    const bool writes = c.kind == TmaKind::kStore || c.kind == TmaKind::kReduction;
    if (!issue_.available()) break;
    if (c.kind == TmaKind::kSharedCopy) {  // a source read only, nothing for the L2
      progress = true;
      issue_.consume(sector_bytes_);
      ++c.next;
      ++stats_.shared_sectors;
      const std::uint64_t extra = neighbours_.read_shared(sector_bytes_, now);
      c.done_ps = std::max(c.done_ps, now + clock_.edge(extra));
      if (c.next < c.sectors.size()) continue;
      queue_.pop_front();
      finish(slot, std::max(c.done_ps, now));
      free_.push_back(slot);
      continue;
    }
    // One request for the copy's next sectors in the same line (a box row of a 128-byte
    // swizzle is a whole line).
    const std::uint64_t sectors_per_line = line_bytes_ / sector_bytes_;
    const std::uint64_t line = c.sectors[c.next] / sectors_per_line;
    std::uint32_t mask = 0, count = 0;
    while (c.next + count < c.sectors.size() &&
           c.sectors[c.next + count] / sectors_per_line == line) {
      mask |= 1u << (c.sectors[c.next + count] % sectors_per_line);
      ++count;
    }
    MemRequest request;
    request.line = line;
    request.sector_mask = mask;
    request.tag = kTmaTagBit | slot;
    request.sm = sm_;
    request.kind = c.kind == TmaKind::kStore       ? ReqKind::kWrite
                   : c.kind == TmaKind::kReduction ? ReqKind::kReduction
                                                   : ReqKind::kRead;
    if (request.kind == ReqKind::kWrite) request.full_mask = request.sector_mask;
    request.acknowledge = writes && c.ack_token != kNoAckToken;
    if (!neighbours_.send(request, now)) {
      blocked_ = true;
      break;
    }
    progress = true;
    issue_.consume(std::int64_t{sector_bytes_} * count);
    c.next += count;
    if (writes) {
      (c.kind == TmaKind::kStore ? stats_.write_sectors : stats_.reduction_sectors) += count;
      if (request.acknowledge) ++c.unacked;
      const std::uint64_t extra = neighbours_.read_shared(sector_bytes_ * count, now);
      c.done_ps = std::max(c.done_ps, now + clock_.edge(extra));
    } else {
      stats_.read_sectors += count;
      c.pending += count;
    }
    if (c.next < c.sectors.size()) continue;
    queue_.pop_front();
    if (c.kind == TmaKind::kLoad) continue;  // completes when its data is written
    finish(slot, std::max(c.done_ps, now));
    if (drained(c)) free_.push_back(slot);
  }
  return progress;
}

void TmaEngine::take_response(const MemResponse& response, Picos now) {
  const std::uint32_t slot = response.tag & ~kTmaTagBit;
  Copy& c = copies_[slot];
  if (c.kind == TmaKind::kStore || c.kind == TmaKind::kReduction) {  // an acknowledgement
    --c.unacked;
    if (c.unacked > 0 || c.next < c.sectors.size()) return;
    finish_acks(slot, now);
    free_.push_back(slot);
    return;
  }
  const auto sectors = static_cast<std::uint32_t>(std::popcount(response.sector_mask));
  c.pending -= sectors;
  if (c.kind == TmaKind::kLoad) {
    const std::uint64_t extra = neighbours_.write_shared(sectors * sector_bytes_, now);
    c.done_ps = std::max(c.done_ps, now + clock_.edge(extra));
  }
  if (c.pending > 0 || c.next < c.sectors.size()) return;
  if (c.kind == TmaKind::kLoad) finish(slot, c.done_ps);
  free_.push_back(slot);
}

Picos TmaEngine::next_event_ps() const {
  if (queue_.empty()) return kNever;
  const Copy& c = copies_[queue_.front()];
  Picos t = std::max(c.start_ps, clock_.edge(issue_.next_available()));
  if (blocked_) t = std::max(t, last_tick_ps_ + clock_.period_ps);
  return t;
}

}  // namespace sassim::memsys
