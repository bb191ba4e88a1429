// The L1's write path: store, reduction and atomic requests, write allocation, write
// credits and the acknowledgements of stores (memsys/l1_unit.h has the timing).
#include <array>
#include <bit>
#include <cassert>

#include "memsys/l1_unit.h"

namespace sassim::memsys {
namespace {

// Sectors a request writes (one bit each in its mask).
unsigned sectors_in(std::uint32_t mask) {
  return static_cast<unsigned>(std::popcount(mask));
}

}  // namespace

L1Unit::Block L1Unit::issue_store_line(std::uint32_t index, const LineAccess& line, Picos now) {
  const std::uint32_t sectors = sectors_in(line.sector_mask);
  // A request larger than every credit still goes when nothing else is in flight.
  if (write_credits_ != 0 && write_sectors_in_flight_ != 0 &&
      write_sectors_in_flight_ + sectors > write_credits_) {
    return Block::kWriteCredits;
  }
  if (to_noc_.full()) return Block::kInterconnect;
  Slot& slot = slots_[index];
  MemRequest request{line.line, line.sector_mask, line.full_mask, slot.ack_wait,
                     sm_,       slot.store_kind};
  request.acknowledge = write_credits_ != 0 || slot.ack_wait != kNoAckWait;
  if (write_credits_ != 0) write_sectors_in_flight_ += sectors;
  if (slot.ack_wait != kNoAckWait) ++ack_waits_[slot.ack_wait].remaining;
  to_noc_.push(request, now, now + clock_.period_ps);
  stats_.store_sectors += sectors;
  if (write_allocate_ && slot.cacheable && slot.store_kind == ReqKind::kWrite && cache_.enabled())
    allocate_written(slot, line);
  slot.ready_ps = now;  // complete once the last line entered the interconnect
  return Block::kNone;
}

SectorCache::Line& L1Unit::install(std::uint64_t line) {
  SectorCache::Victim victim;
  SectorCache::Line& installed = cache_.allocate(line, &victim);
  if (!partial_writes_.empty()) {
    if (victim.present) partial_writes_.erase(victim.line);
    partial_writes_.erase(line);
  }
  return installed;
}

void L1Unit::allocate_written(const Slot& slot, const LineAccess& line) {
  const std::size_t words = (geometry_.line_bytes + 63) / 64;
  const std::uint64_t* written = slot.lines.byte_bits.data() +
                                 static_cast<std::size_t>(&line - slot.lines.lines.data()) * words;
  SectorCache::Line* cached = cache_.find(line.line);
  if (cached == nullptr) cached = &install(line.line);
  cache_.touch(*cached);
  cached->valid |= line.full_mask;
  const std::uint32_t partial = line.sector_mask & ~cached->valid;
  if (partial == 0) return;
  std::array<std::uint64_t, 16>& bytes = partial_writes_[line.line];  // zeroed when new
  for (std::size_t w = 0; w < words; ++w) bytes[w] |= written[w];
  const std::uint32_t sector_bytes = geometry_.sector_bytes;
  for (std::uint32_t s = 0; s < geometry_.sectors_per_line(); ++s) {
    if ((partial >> s & 1u) == 0) continue;
    bool complete = true;
    for (std::uint32_t b = s * sector_bytes; b < (s + 1) * sector_bytes && complete; ++b)
      complete = (bytes[b / 64] >> (b % 64) & 1u) != 0;
    if (complete) cached->valid |= 1u << s;
  }
  const std::uint32_t all =
      (geometry_.sectors_per_line() >= 32) ? ~0u : (1u << geometry_.sectors_per_line()) - 1;
  if ((cached->valid & all) == all) partial_writes_.erase(line.line);
}

L1Unit::Block L1Unit::issue_atomic_line(std::uint32_t index, const LineAccess& line, Picos now) {
  if (to_noc_.full()) return Block::kInterconnect;
  to_noc_.push(
      MemRequest{line.line, line.sector_mask, line.full_mask, index, sm_, ReqKind::kAtomic}, now,
      now + clock_.period_ps);
  if (SectorCache::Line* cached = cache_.find(line.line)) cached->valid &= ~line.sector_mask;
  ++slots_[index].pending;
  return Block::kNone;
}

void L1Unit::take_acknowledgement(const MemResponse& response, Picos now) {
  if (write_credits_ != 0) {
    assert(write_sectors_in_flight_ >= sectors_in(response.sector_mask));
    write_sectors_in_flight_ -= sectors_in(response.sector_mask);
  }
  if (response.tag == kNoAckWait) return;
  AckWait& wait = ack_waits_[response.tag];
  assert(wait.remaining > 0);
  if (--wait.remaining == 0 && wait.sent) {
    completions_.push(Completion{now, next_seq_++, wait.token});
    free_ack_waits_.push_back(response.tag);
  }
}

}  // namespace sassim::memsys
