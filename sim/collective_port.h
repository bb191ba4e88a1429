#pragma once
// The GPU's side of the collectives of a multi-GPU run (multigpu/ implements it). A
// GPU replaying a rank's trace says when each collective may start (every launch before
// it in its stream is done) and stops at every sync time the port names to learn which
// of its collectives end, and when. Sync times are at most the shortest collective
// apart, so an end learnt at a sync never lies before it (conservative lookahead).
// Times are the GPU engine's picoseconds; every rank's engine starts at 0.
#include <cstddef>
#include <vector>

#include "ground/unit.h"

namespace sassim::sim {

class CollectivePort {
 public:
  struct Finished {
    std::size_t index = 0;  // the collective's position among the trace's collectives
    Picos end = 0;          // >= the sync time it is told at
  };
  virtual ~CollectivePort() = default;
  // The index-th collective of the trace may start at `now`.
  virtual void arrive(std::size_t index, Picos now) = 0;
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
