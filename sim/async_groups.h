#pragma once
// The asynchronous-copy groups of one warp (Ampere LDGSTS, LDGDEPBAR, DEPBAR; PTX
// cp.async, cp.async.commit_group, cp.async.wait_group). A copy joins the warp's
// open group when it issues; LDGDEPBAR commits the open group and opens the next;
// DEPBAR.LE SB0, N lets the warp go on once at most N committed groups still have
// copies in flight, i.e. every committed group but the newest N has completed
// (copies may complete out of order; a group is done when all of its copies are).
// Copies not yet committed are not waited for. N is the instruction's immediate,
// recorded by tracer version 5; earlier traces record none and N = 0 (wait for every
// committed group) is taken.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "sim/warp.h"

namespace sassim::sim {

// Adds a copy to the open group; returns the group's number (for finish_async_copy).
inline std::uint64_t join_async_group(Warp& w) {
  if (w.async_groups.empty()) w.async_groups.push_back(0);
  ++w.async_groups.back();
  return w.async_group_base + w.async_groups.size() - 1;
}

// LDGDEPBAR: the open group becomes committed (even when empty) and a new one opens.
inline void commit_async_group(Warp& w) {
  if (w.async_groups.empty()) w.async_groups.push_back(0);
  w.async_groups.push_back(0);
  // A committed group without copies is complete at once.
  while (w.async_groups.size() > 1 && w.async_groups.front() == 0) {
    w.async_groups.erase(w.async_groups.begin());
    ++w.async_group_base;
  }
}

// A copy of group `group` completed.
inline void finish_async_copy(Warp& w, std::uint64_t group) {
  --w.async_groups[group - w.async_group_base];
  while (w.async_groups.size() > 1 && w.async_groups.front() == 0) {
    w.async_groups.erase(w.async_groups.begin());
    ++w.async_group_base;
  }
}

// True when at most `allowed` committed groups have copies in flight. Complete groups
// at the front are dropped as they finish, so the committed groups still listed
// (all but the open one) begin with an incomplete one.
inline bool async_groups_within(const Warp& w, std::uint32_t allowed) {
  return w.async_groups.size() <= std::size_t{allowed} + 1;
}

// N of DEPBAR.LE SB0, N from the recorded immediate (negative: 0).
inline std::uint32_t depbar_allowed_groups(std::int64_t immediate) {
  return static_cast<std::uint32_t>(
      std::clamp<std::int64_t>(immediate, 0, std::numeric_limits<std::uint32_t>::max()));
}

}  // namespace sassim::sim
