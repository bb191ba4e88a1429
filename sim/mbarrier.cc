#include "sim/mbarrier.h"

#include <algorithm>

namespace sassim::sim {

void Mbarriers::init(MbarrierKey key, std::uint32_t arrivals) {
  Barrier& b = at(key);
  b = Barrier{};
  b.expected = std::max<std::uint32_t>(arrivals, 1);
}

bool Mbarriers::pending(const Barrier& b) const {
  return b.arrived < b.expected || b.tx_pending > 0 || (b.tx_expected && !b.tx_seen);
}

std::vector<unsigned> Mbarriers::try_complete(Barrier& b) {
  if (pending(b)) return {};
  ++b.phase;
  b.arrived = 0;
  b.tx_expected = false;
  b.tx_seen = false;
  return std::exchange(b.waiters, {});
}

std::vector<unsigned> Mbarriers::arrive(MbarrierKey key, bool expects_tx) {
  Barrier& b = at(key);
  ++b.arrived;
  b.tx_expected = b.tx_expected || expects_tx;
  return try_complete(b);
}

void Mbarriers::issue_tx(MbarrierKey key, std::uint64_t bytes) {
  Barrier& b = at(key);
  b.tx_pending += bytes;
  b.tx_seen = true;
}

std::vector<unsigned> Mbarriers::complete_tx(MbarrierKey key, std::uint64_t bytes) {
  Barrier& b = at(key);
  b.tx_pending -= std::min(bytes, b.tx_pending);
  return try_complete(b);
}

std::uint64_t Mbarriers::completed_phases(MbarrierKey key) const {
  const auto it = barriers_.find(key);
  return it == barriers_.end() ? 0 : it->second.phase;
}

bool Mbarriers::wait(MbarrierKey key, unsigned slot) {
  Barrier& b = at(key);
  // Nothing has happened in the current phase: nothing to wait for (the arrivals the
  // trace's producer makes later are not known yet).
  if (b.arrived == 0 && b.tx_pending == 0 && !b.tx_seen) return false;
  if (!pending(b)) return false;
  b.waiters.push_back(slot);
  return true;
}

void Mbarriers::release_cta(std::uint32_t cta_slot) {
  barriers_.erase(barriers_.lower_bound(MbarrierKey{cta_slot, 0}),
                  barriers_.lower_bound(MbarrierKey{cta_slot + 1, 0}));
}

}  // namespace sassim::sim
