#pragma once
// Hopper mbarriers of one SM (PTX mbarrier.*; SASS SYNCS.*): shared-memory objects
// with a phase, a count of pending arrivals and a pending transaction (tx) byte
// count. A phase completes when every expected arrival has arrived and no
// transaction bytes are pending; the barrier then starts the next phase with the
// expected arrivals again. Warps waiting on a phase (SYNCS.PHASECHK.TRANS64.TRYWAIT
// and the loop around it) resume when that phase completes.
//
// Traces record register numbers, not values, so the counts an instruction passes in
// registers are unknown. The simplifications:
// - A barrier is named by (CTA slot, shared-memory offset of the instruction's
//   address); its expected arrivals per phase default to 1 (the TMA producer pattern:
//   one elected thread arrives with expect_tx) unless init() says otherwise.
// - expect_tx bytes are not known at the arrive: an arrive that expects transactions
//   (SYNCS.ARRIVE.TRANS64 with a non-RZ byte operand) holds the phase until at least
//   one copy has been issued on the barrier and every issued copy has completed. Each
//   copy adds its byte count (known from its trace line) when issued (issue_tx) and
//   removes it on completion (complete_tx).
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace sassim::sim {

struct MbarrierKey {
  std::uint32_t cta_slot = 0;
  std::uint64_t offset = 0;  // shared-memory offset of the barrier
  auto operator<=>(const MbarrierKey&) const = default;
};

class Mbarriers {
 public:
  // mbarrier.init: `arrivals` expected per phase (at least 1); resets the barrier.
  void init(MbarrierKey key, std::uint32_t arrivals);
  // One arrival; expects_tx: the arrive carried an expect_tx byte count.
  // Returns the warps woken (slots) when the phase completed.
  std::vector<unsigned> arrive(MbarrierKey key, bool expects_tx);
  // A copy of `bytes` issued / completed on the barrier.
  void issue_tx(MbarrierKey key, std::uint64_t bytes);
  std::vector<unsigned> complete_tx(MbarrierKey key, std::uint64_t bytes);
  // Phases completed so far (the parity a wait asks for is its low bit).
  std::uint64_t completed_phases(MbarrierKey key) const;
  // A warp waits for the barrier's current phase to complete: true when it must wait
  // (it is then woken by arrive / complete_tx); false when no phase is pending (no
  // arrival or transaction outstanding).
  bool wait(MbarrierKey key, unsigned slot);
  // Drops the barriers of a CTA slot (the CTA retired).
  void release_cta(std::uint32_t cta_slot);
  std::size_t size() const { return barriers_.size(); }

 private:
  struct Barrier {
    std::uint32_t expected = 1;
    std::uint32_t arrived = 0;
    std::uint64_t tx_pending = 0;  // bytes of issued copies not completed
    bool tx_expected = false;      // an arrive expects transactions this phase
    bool tx_seen = false;          // a copy was issued this phase
    std::uint64_t phase = 0;
    std::vector<unsigned> waiters;
  };
  Barrier& at(MbarrierKey key) { return barriers_[key]; }
  // Completes the phase when it can; returns the woken warps.
  std::vector<unsigned> try_complete(Barrier& b);
  bool pending(const Barrier& b) const;

  std::map<MbarrierKey, Barrier> barriers_;  // ordered: deterministic
};

}  // namespace sassim::sim
