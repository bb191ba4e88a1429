#include "sim/mbarrier.h"

#include <algorithm>

namespace sassim::sim {

void Mbarriers::init(MbarrierKey key, std::uint32_t arrivals) {
  Barrier& b = at(key);
  std::vector<unsigned> waiters = std::move(b.waiters);
  const std::uint64_t phase = b.phase;
  const std::uint64_t in_flight = b.tx_in_flight;
  b = Barrier{};
  b.expected = std::max<std::uint32_t>(arrivals, 1);
  b.phase = phase;
  b.tx_in_flight = in_flight;
  b.waiters = std::move(waiters);
}

bool Mbarriers::pending(const Barrier& b) {
  return b.arrived < b.expected || b.tx_count > 0 ||
         (b.tx_unknown && (!b.tx_seen || b.tx_in_flight > 0));
}

std::vector<unsigned> Mbarriers::try_complete(Barrier& b) {
  if (pending(b)) return {};
  ++b.phase;
  b.arrived = 0;
  // Bytes counted without a recorded expect_tx do not carry into the next phase.
  if (b.tx_unknown) b.tx_count = 0;
  b.tx_unknown = false;
  b.tx_seen = false;
  return std::exchange(b.waiters, {});
}

std::vector<unsigned> Mbarriers::arrive(MbarrierKey key, const MbarrierArrive& arrive) {
  Barrier& b = at(key);
  b.arrived += arrive.arrivals;
  if (arrive.expects_tx) {
    if (arrive.tx_bytes) {
      b.tx_count += static_cast<std::int64_t>(*arrive.tx_bytes);
    } else {
      b.tx_unknown = true;
    }
  }
  return try_complete(b);
}

void Mbarriers::issue_tx(MbarrierKey key, std::uint64_t bytes) {
  Barrier& b = at(key);
  b.tx_in_flight += bytes;
  b.tx_seen = true;
}

std::vector<unsigned> Mbarriers::complete_tx(MbarrierKey key, std::uint64_t bytes) {
  Barrier& b = at(key);
  b.tx_in_flight -= std::min(bytes, b.tx_in_flight);
  b.tx_count -= static_cast<std::int64_t>(bytes);
  return try_complete(b);
}

std::uint64_t Mbarriers::completed_phases(MbarrierKey key) const {
  const auto it = barriers_.find(key);
  return it == barriers_.end() ? 0 : it->second.phase;
}

bool Mbarriers::wait(MbarrierKey key, unsigned slot, std::optional<unsigned> parity) {
  Barrier& b = at(key);
  if (parity) {
    // try_wait.parity P succeeds once the phase of parity P has completed, i.e. while
    // the current (incomplete) phase has the other parity.
    if ((b.phase & 1U) != (*parity & 1U)) return false;
  } else {
    // Nothing has happened in the current phase: nothing to wait for (the arrivals the
    // trace's producer makes later are not known yet).
    if (b.arrived == 0 && b.tx_count <= 0 && !b.tx_seen && !b.tx_unknown) return false;
    if (!pending(b)) return false;
  }
  b.waiters.push_back(slot);
  return true;
}

void Mbarriers::release_cta(std::uint32_t cta_slot) {
  barriers_.erase(barriers_.lower_bound(MbarrierKey{cta_slot, 0}),
                  barriers_.lower_bound(MbarrierKey{cta_slot + 1, 0}));
}

}  // namespace sassim::sim
