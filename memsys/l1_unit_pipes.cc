// The L1's two pipes after the LSU input queue (memsys/l1_unit.h has the timing): the
// tagged pipe, which coalesces an access into lines, looks them up and issues loads and
// async copies here (stores and atomics: l1_unit_writes.cc), and the shared memory pipe,
// which takes an access's bank passes on the data path.
#include <bit>

#include "memsys/l1_unit.h"

namespace sassim::memsys {
namespace {

unsigned sectors_in(std::uint32_t mask) {
  return static_cast<unsigned>(std::popcount(mask));
}

}  // namespace

L1Unit::Block L1Unit::drain(TimedQueue<std::uint32_t>& pipe, Picos now, std::uint32_t& lookups,
                            bool& progress) {
  while (pipe.ready(now)) {
    const std::uint32_t index = pipe.front();
    const std::uint32_t issued_before = slots_[index].next_line;
    const Block block = advance(index, now, lookups);
    if (slots_[index].next_line != issued_before) progress = true;
    if (block != Block::kNone) return block;
    pipe.pop();
    slots_[index].issued = true;
    progress = true;
    finish_if_done(index);
  }
  return Block::kNone;
}

void L1Unit::start(Slot& slot) {
  if (slot.path == Path::kShared) return;
  coalesce(slot.addresses, slot.bytes_per_thread, geometry_, slot.lines);
}

L1Unit::Block L1Unit::advance(std::uint32_t index, Picos now, std::uint32_t& lookups) {
  Slot& slot = slots_[index];
  if (slot.path == Path::kShared) {
    if (!data_path_.available()) return Block::kDataPath;
    const std::uint32_t passes =
        shared_bank_passes(slot.addresses, slot.active_mask, slot.bytes_per_thread, banks_);
    const std::uint64_t extra =
        data_path_.consume(static_cast<std::int64_t>(passes) * data_bytes_per_cycle_);
    slot.ready_ps = now + cycles(shared_latency_cycles_ - 1 + extra);
    ++stats_.shared_accesses;
    stats_.shared_bank_passes += passes;
    return Block::kNone;
  }
  if (slot.next_line == 0 && slot.lines.lines.empty()) start(slot);
  const std::vector<LineAccess>& lines = slot.lines.lines;
  while (slot.next_line < lines.size()) {
    if (lookups == 0) return Block::kLookups;
    const LineAccess& line = lines[slot.next_line];
    Block block = Block::kNone;
    switch (slot.path) {
      case Path::kLoad:
        block = issue_load_line(index, line, now);
        break;
      case Path::kStore:
        block = issue_store_line(index, line, now);
        break;
      case Path::kAtomic:
        block = issue_atomic_line(index, line, now);
        break;
      case Path::kShared:
        break;
    }
    if (block != Block::kNone) return block;
    --lookups;
    ++slot.next_line;
  }
  return Block::kNone;
}

L1Unit::Block L1Unit::issue_load_line(std::uint32_t index, const LineAccess& line, Picos now) {
  Slot& slot = slots_[index];
  SectorCache::Line* cached = slot.cacheable ? cache_.find(line.line) : nullptr;
  const std::uint32_t valid = cached != nullptr ? cached->valid : 0;
  const std::uint32_t hit = line.sector_mask & valid;
  const std::uint32_t miss = line.sector_mask & ~valid;
  if (hit != 0 && !data_path_.available()) return Block::kDataPath;
  std::uint32_t entry = MshrTable<Waiter>::kNone;
  std::uint32_t send = 0;
  if (miss != 0) {
    // A load the L1 keeps no copy of has its data delivered to it alone.
    if (slot.cacheable || merge_bypass_reads_) entry = mshrs_.find(line.line);
    if (entry == MshrTable<Waiter>::kNone && mshrs_.full()) return Block::kMshr;
    send = miss & ~(entry != MshrTable<Waiter>::kNone ? mshrs_[entry].outstanding : 0);
    if (send != 0 && to_noc_.full()) return Block::kInterconnect;
  }

  stats_.sector_accesses += sectors_in(line.sector_mask);
  stats_.sector_hits += sectors_in(hit);
  stats_.sector_misses += sectors_in(miss);
  if (cached != nullptr) apply_hit_policy(*cached, slot.policy, hit);
  if (hit != 0) {
    const std::uint64_t extra =
        data_path_.consume(static_cast<std::int64_t>(sectors_in(hit) * geometry_.sector_bytes));
    slot.ready_ps = std::max(slot.ready_ps, now + cycles(hit_latency_cycles_ - 1 + extra));
  }
  if (miss != 0) {
    if (entry == MshrTable<Waiter>::kNone) {
      entry = mshrs_.allocate(line.line, now);
      mshrs_[entry].fill_allocates = false;
      mshrs_[entry].fill_evict_first = true;
      mshrs_[entry].fill_evict_last = false;
    }
    note_fill_policy(mshrs_[entry], slot.cacheable, slot.policy);
    mshrs_[entry].waiters.push_back(Waiter{index, miss});
    slot.pending += sectors_in(miss);
    if (send != 0) {
      to_noc_.push(MemRequest{line.line, send, 0, entry, sm_, ReqKind::kRead}, now,
                   now + clock_.period_ps);
      mshrs_[entry].outstanding |= send;
    }
  }
  return Block::kNone;
}

}  // namespace sassim::memsys
