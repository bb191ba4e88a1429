#pragma once
// One collective of a multi-GPU run as every rank of its communicator calls it: the
// call, its simulated cost on the system (which does not depend on when it starts), and,
// once the run has placed it, when each rank arrived, when it started (the last
// arrival) and ended.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ground/unit.h"
#include "system/collective.h"

namespace sassim::multigpu {

// "all_reduce bf16 16384 B"
std::string describe(const system::CollectiveCall& call);

struct CollectiveInstance {
  system::CollectiveCall call;  // ranks: the communicator's GPU ranks, in ring order
  std::string source;           // the first rank's list line ("rank-0/kernelslist.g:9")
  system::CollectiveResult result;
  std::vector<std::optional<Picos>> arrivals;  // parallel to call.ranks
  Picos start = 0;
  Picos end = 0;
  bool resolved = false;  // start and end are known

  // "all_reduce bf16 16.0 KiB (rank-0/kernelslist.g:9)"
  std::string describe() const;
};

}  // namespace sassim::multigpu
