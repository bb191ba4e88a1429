#pragma once
// The meeting point of the GPUs of a multi-GPU run (multigpu/system_run.h): each
// simulated trace (a "player", standing for the ranks that replay it) runs on its own
// host thread with a sim::CollectivePort from here. Players stop at common sync times
// a lookahead apart (the shortest collective), where a collective that every rank of its
// communicator has reached gets its start (the last arrival) and end (start + its
// simulated time), both at or after that sync: each player's engine stays causal, and
// the outcome does not depend on how the threads run.
#include <atomic>
#include <barrier>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ground/error.h"
#include "multigpu/collective_instance.h"
#include "sim/collective_port.h"

namespace sassim::multigpu {

// Thrown in a player whose run cannot go on because another player failed or stopped.
class RunAborted : public Error {
 public:
  using Error::Error;
};

struct Player {
  std::vector<uint32_t> ranks;         // GPU ranks replaying this trace
  std::vector<std::size_t> instances;  // the instance of each of its collectives, trace order
};

class RankSync {
 public:
  // charge: each port charges its GPU the GPU side of its collectives (the side of the
  // player's first rank in the communicator); false: nothing.
  RankSync(std::vector<CollectiveInstance> instances, std::vector<Player> players,
           bool charge = true);
  ~RankSync();
  RankSync(const RankSync&) = delete;
  RankSync& operator=(const RankSync&) = delete;

  // The port of player p (valid while this lives).
  sim::CollectivePort& port(std::size_t p);
  // Player p takes part in no more syncs: its trace is done, it failed or it stopped
  // (the others then stop at their next sync with RunAborted).
  void leave(std::size_t p, bool ended_normally);
  // Sync times are multiples of this (kNever: no collective, no sync).
  Picos lookahead() const { return lookahead_; }
  const std::vector<CollectiveInstance>& instances() const { return instances_; }
  std::uint64_t syncs() const { return syncs_; }

 private:
  class Port;
  struct Resolve {
    RankSync* self;
    void operator()() noexcept { self->resolve(); }
  };
  // Returns the start when this arrival is the last of its communicator and every other
  // rank arrived before p's last sync: those arrivals were recorded before that sync, so
  // the answer does not depend on how the threads run.
  std::optional<Picos> arrive(std::size_t p, std::size_t index, Picos now);
  sim::CollectivePort::Charge charge(std::size_t p, std::size_t index) const;
  std::vector<sim::CollectivePort::Finished> sync(std::size_t p, Picos now, bool idle);
  void resolve();  // the barrier's completion: every player is at its sync time
  std::string deadlock_message() const;

  std::vector<CollectiveInstance> instances_;
  std::vector<Player> players_;
  // Per instance: (player, index in the player's collectives) of each player taking part.
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> takers_;
  std::vector<std::unique_ptr<Port>> ports_;
  Picos lookahead_ = kNever;
  bool charge_ = true;
  std::mutex mutex_;  // arrivals, between syncs
  std::barrier<Resolve> barrier_;
  // Written by players before the barrier (their own slot) or by resolve().
  std::vector<char> idle_, left_;
  std::vector<std::vector<sim::CollectivePort::Finished>> told_;
  std::vector<Picos> times_;  // each player's sync time (the last it reached)
  std::atomic<bool> aborted_{false};
  std::string error_;  // set by resolve() on a deadlock
  std::uint64_t syncs_ = 0;
};

}  // namespace sassim::multigpu
