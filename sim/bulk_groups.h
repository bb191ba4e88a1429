#pragma once
// The bulk async-groups of one warp (Hopper TMA stores and reductions: UTMASTG,
// UBLKCP.G.S, UTMAREDG, UBLKRED; PTX cp.async.bulk.commit_group and
// cp.async.bulk.wait_group[.read]). A store joins the warp's open group when it
// issues; UTMACMDFLUSH commits the open group and opens the next; DEPBAR.LE SB0, N
// lets the warp go on once every committed group but the newest N has had its
// shared-memory source read (the `.read` form: the TMA engine sent its last request).
// The plain form is DEPBAR.LE followed by CCTL.IVALL: after DEPBAR.LE SB0, N with N > 0
// the CCTL.IVALL waits until every committed group but the newest N has had its writes
// acknowledged by the L2 (and for nothing else); with N = 0, or without a DEPBAR.LE
// before it, it waits as MEMBAR for all the warp's accesses, acknowledgements included
// (docs/MODEL.md has the sources and the reasoning).
#include <cstdint>

#include "sim/async_groups.h"
#include "sim/warp.h"

namespace sassim::sim {

// Drops complete groups from the front (never the open one).
inline void drop_complete_bulk_groups(Warp& w) {
  while (w.bulk_groups.size() > 1 && w.bulk_groups.front().unread == 0 &&
         w.bulk_groups.front().unacked == 0) {
    w.bulk_groups.erase(w.bulk_groups.begin());
    ++w.bulk_group_base;
  }
}

// Adds a store to the open group; returns the group's number.
inline std::uint64_t join_bulk_group(Warp& w) {
  if (w.bulk_groups.empty()) w.bulk_groups.emplace_back();
  ++w.bulk_groups.back().unread;
  ++w.bulk_groups.back().unacked;
  return w.bulk_group_base + w.bulk_groups.size() - 1;
}

// UTMACMDFLUSH: the open group becomes committed (even when empty) and a new one opens.
inline void commit_bulk_group(Warp& w) {
  if (w.bulk_groups.empty()) w.bulk_groups.emplace_back();
  w.bulk_groups.emplace_back();
  drop_complete_bulk_groups(w);
}

// A store of group `group` has had its source read / its writes acknowledged.
inline void bulk_source_read(Warp& w, std::uint64_t group) {
  --w.bulk_groups[group - w.bulk_group_base].unread;
  drop_complete_bulk_groups(w);
}
inline void bulk_writes_acknowledged(Warp& w, std::uint64_t group) {
  --w.bulk_groups[group - w.bulk_group_base].unacked;
  drop_complete_bulk_groups(w);
}

// True when every committed group but the newest `allowed` has no `pending` left (its
// sources read: &BulkGroup::unread; its writes acknowledged: &BulkGroup::unacked).
template <typename Count>
inline bool bulk_groups_within(const Warp& w, std::uint32_t allowed, Count pending) {
  if (w.bulk_groups.size() <= 1) return true;
  const std::size_t committed = w.bulk_groups.size() - 1;
  for (std::size_t i = 0; i < committed; ++i) {
    if (w.bulk_groups[i].*pending > 0) return committed - i <= allowed;
  }
  return true;
}
inline bool bulk_reads_within(const Warp& w, std::uint32_t allowed) {
  return bulk_groups_within(w, allowed, &BulkGroup::unread);
}
inline bool bulk_acks_within(const Warp& w, std::uint32_t allowed) {
  return bulk_groups_within(w, allowed, &BulkGroup::unacked);
}

// DEPBAR.LE SB0, N in register-scoreboard mode: the LDGSTS groups and the bulk groups.
inline bool depbar_groups_within(const Warp& w, std::uint32_t allowed) {
  return async_groups_within(w, allowed) && bulk_reads_within(w, allowed);
}

// MEMBAR (and CCTL): nothing of the warp in flight, acknowledgements included (those
// of ordinary writes for a MEMBAR beyond the CTA).
inline bool accesses_drained(const Warp& w) {
  return w.outstanding == 0 && w.bulk_unacked == 0 && (!w.wait_writes || w.writes_unacked == 0);
}

// A memory barrier issues: CCTL.IVALL (`invalidates_l1`) after DEPBAR.LE SB0, N with
// N > 0 waits for the bulk groups' acknowledgements only, any other for every access.
inline void start_memory_barrier(Warp& w, bool invalidates_l1, bool waits_for_writes) {
  w.wait_async_only = false;
  w.wait_writes = waits_for_writes;
  w.wait_bulk_acks = invalidates_l1 && w.bulk_wait_groups > 0;
}

// What a warp in kWaitMemory waits for is done.
inline bool memory_wait_done(const Warp& w) {
  if (w.wait_async_only) return depbar_groups_within(w, w.async_wait_groups);
  if (w.wait_bulk_acks) return bulk_acks_within(w, w.bulk_wait_groups);
  return accesses_drained(w);
}

}  // namespace sassim::sim
