#pragma once
// The GPU's side of the collectives of a multi-GPU run (multigpu/ implements it). A
// GPU replaying a rank's trace says when each collective may start (every launch before
// it in its stream is done) and stops at every sync time the port names to learn which
// of its collectives end, and when. Sync times are at most the shortest collective
// apart, so an end learnt at a sync never lies before it (conservative lookahead).
// Times are the GPU engine's picoseconds; every rank's engine starts at 0.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ground/unit.h"

namespace sassim::sim {

class CollectivePort {
 public:
  struct Finished {
    std::size_t index = 0;  // the collective's position among the trace's collectives
    Picos end = 0;          // >= the sync time it is told at
  };
  // What the index-th collective takes of this GPU from its arrival to its end: SMs
  // (one CTA per channel), and the bytes it reads and writes in the GPU's memory
  // between its start and its end. All zero: nothing is charged to the GPU.
  struct Charge {
    std::uint32_t sms = 0;
    std::uint64_t memory_read_bytes = 0;
    std::uint64_t memory_write_bytes = 0;
    Picos time_ps = 0;  // from its start (the communicator's last arrival) to its end
  };
  virtual ~CollectivePort() = default;
  // The index-th collective of the trace may start at `now`. Returns its start when that
  // is known already (this GPU is the last of the communicator to arrive, and knows the
  // others' arrivals), else nullopt: the GPU learns its end at a sync.
  virtual std::optional<Picos> arrive(std::size_t index, Picos now) = 0;
  virtual Charge charge(std::size_t index) const = 0;
  // The first sync time after `now`.
  virtual Picos next_sync(Picos now) const = 0;
  // At a sync time: waits for every other GPU to reach it and returns this GPU's
  // collectives whose end became known. `idle`: nothing of this GPU runs (it waits on
  // collectives alone), which lets the port see a deadlock. Throws sassim::Error when
  // the run cannot go on (another GPU failed, or every GPU waits on a collective that a
  // GPU will never reach).
  virtual std::vector<Finished> sync(Picos now, bool idle) = 0;
};

}  // namespace sassim::sim
