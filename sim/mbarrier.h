#pragma once
// Hopper mbarriers of one SM (PTX mbarrier.*; SASS SYNCS.*): shared-memory objects
// with a phase, a count of pending arrivals and a pending transaction (tx) byte
// count. A phase completes when every expected arrival has arrived and no
// transaction bytes are pending; the barrier then starts the next phase with the
// expected arrivals again. Warps waiting on a phase (SYNCS.PHASECHK.TRANS64.TRYWAIT
// and the loop around it) resume when that phase completes.
//
// Traces record register numbers; a line may also record the value of the
// instruction's data register (traces/kernel_trace.h). Where it does not:
// - A barrier is named by (CTA slot, shared-memory offset of the instruction's
//   address); its expected arrivals per phase default to 1 (the TMA producer pattern:
//   one elected thread arrives with expect_tx) unless init() says otherwise.
// - An arrive that expects transactions of unknown size holds the phase until at
//   least one copy has been issued on the barrier and every issued copy has completed.
//   Each copy adds its byte count (known from its trace line) when issued (issue_tx)
//   and removes it on completion (complete_tx).
// - A wait without a phase parity waits only while the current phase has begun
//   (an arrival or copy seen) and is not complete.
// Where the values are recorded, the hardware rules apply: expect_tx adds its bytes to
// the tx count and each completed copy removes its bytes (the count may go below zero
// when a copy completes before its expect_tx); a wait for parity P waits while the
// current phase has parity P.
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace sassim::sim {

struct MbarrierKey {
  std::uint32_t cta_slot = 0;
  std::uint64_t offset = 0;  // shared-memory offset of the barrier
  auto operator<=>(const MbarrierKey&) const = default;
};

struct MbarrierArrive {
  std::uint32_t arrivals = 1;             // threads arriving
  bool expects_tx = false;                // an arrive.expect_tx
  std::optional<std::uint64_t> tx_bytes;  // its byte count, when recorded
};

class Mbarriers {
 public:
  // mbarrier.init: `arrivals` expected per phase (at least 1); resets the barrier's
  // counts (warps already waiting on it keep waiting).
  void init(MbarrierKey key, std::uint32_t arrivals);
  // Returns the warps woken (slots) when the phase completed.
  std::vector<unsigned> arrive(MbarrierKey key, const MbarrierArrive& arrive);
  // One arrival; expects_tx: an expect_tx of unknown size.
  std::vector<unsigned> arrive(MbarrierKey key, bool expects_tx) {
    return arrive(key, MbarrierArrive{1, expects_tx, std::nullopt});
  }
  // A copy of `bytes` issued / completed on the barrier.
  void issue_tx(MbarrierKey key, std::uint64_t bytes);
  std::vector<unsigned> complete_tx(MbarrierKey key, std::uint64_t bytes);
  // Phases completed so far (the parity of the current phase is its low bit).
  std::uint64_t completed_phases(MbarrierKey key) const;
  // A warp waits for a phase (of `parity` when known) to complete: true when it must
  // wait (it is then woken by arrive / complete_tx).
  bool wait(MbarrierKey key, unsigned slot, std::optional<unsigned> parity = std::nullopt);
  // Drops the barriers of a CTA slot (the CTA retired).
  void release_cta(std::uint32_t cta_slot);
  std::size_t size() const { return barriers_.size(); }

 private:
  struct Barrier {
    std::uint32_t expected = 1;
    std::uint32_t arrived = 0;
    std::int64_t tx_count = 0;       // recorded expect_tx bytes less completed bytes
    std::uint64_t tx_in_flight = 0;  // bytes of issued copies not completed
    bool tx_unknown = false;         // an arrive expected transactions of unknown size
    bool tx_seen = false;            // a copy was issued this phase
    std::uint64_t phase = 0;
    std::vector<unsigned> waiters;
  };
  Barrier& at(MbarrierKey key) { return barriers_[key]; }
  // Completes the phase when it can; returns the woken warps.
  std::vector<unsigned> try_complete(Barrier& b);
  static bool pending(const Barrier& b);

  std::map<MbarrierKey, Barrier> barriers_;  // ordered: deterministic
};

}  // namespace sassim::sim
