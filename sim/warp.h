#pragma once
// The state of one warp slot of an SM: where it is in its instruction stream, its
// register scoreboard and what it waits for.
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "isa/instruction.h"
#include "sim/operand_reuse.h"
#include "sim/warp_scoreboards.h"
#include "sim/warp_state.h"
#include "traces/warp_stream.h"

namespace sassim::sim {

inline constexpr std::uint64_t kNeverCycle = std::numeric_limits<std::uint64_t>::max();

enum class WarpState : std::uint8_t {
  kFree,          // slot unused
  kRunning,       // has instructions left
  kAtBarrier,     // waiting at BAR.SYNC for the rest of its CTA
  kWaitMemory,    // DEPBAR / MEMBAR: waiting for its outstanding accesses
  kDraining,      // instruction stream done, waiting for its outstanding accesses
  kWaitMbarrier,  // SYNCS.PHASECHK: waiting for an mbarrier phase (sim/sm_tma.cc)
};

// One bulk async-group: its copies whose shared-memory source has not been read yet,
// and those whose writes have not been acknowledged.
struct BulkGroup {
  std::uint32_t unread = 0;
  std::uint32_t unacked = 0;
};

// What issue checks about a warp's next instruction, copied from the trace when the
// warp moves to it (Sm::set_next) so that warps that cannot issue do not read the trace.
struct NextInst {
  const isa::StaticInst* si = nullptr;  // null: no instruction left
  std::uint32_t static_index = 0;
  isa::UnitClass unit{};
  bool memory = false;  // a memory instruction with addresses
  bool operator==(const NextInst&) const = default;
};

struct Warp {
  WarpState state = WarpState::kFree;
  std::uint32_t cta_slot = 0;
  std::uint64_t age = 0;  // launch order on this SM
  // The instruction stream and the position in it: change only through Sm::set_next.
  traces::WarpWindow window;
  std::uint32_t next = 0;
  NextInst next_inst;
  // Earliest cycle at which the next instruction's registers allow issue
  // (kNeverCycle while one of them waits for a load).
  std::uint64_t ready_cycle = 0;
  std::uint64_t min_issue_cycle = 0;  // one past the cycle of its last issue
  // Cycle accounting: the state held since `state_since` (not yet counted).
  WarpCycleState cycle_state = WarpCycleState::kWait;
  std::uint64_t state_since = 0;
  std::uint64_t since_seq = 0;          // the SM's account_all count when state_since was set
  bool wait_async_only = false;         // kWaitMemory: DEPBAR (true) or MEMBAR (false)
  std::uint8_t barrier_id = 0;          // kAtBarrier: which of the CTA's barriers
  bool cluster_arrived = false;         // UCGABAR_ARV issued, UCGABAR_WAIT not yet
  std::uint64_t cluster_phase = 0;      // the cluster barrier phase it arrived in
  std::uint32_t outstanding = 0;        // memory accesses in flight
  std::uint32_t outstanding_async = 0;  // of which asynchronous copies (LDGSTS)
  // Asynchronous-copy groups (sim/async_groups.h): copies in flight per group, from
  // the oldest incomplete group (number async_group_base) to the open one (last).
  std::vector<std::uint32_t> async_groups;
  std::uint64_t async_group_base = 0;
  std::uint32_t async_wait_groups = 0;  // kWaitMemory on DEPBAR: groups allowed pending
  // Bulk async-groups of TMA stores and reductions (sim/bulk_groups.h), from the oldest
  // group with a copy in flight (number bulk_group_base) to the open one (last); and
  // the copies whose writes the L2 has not yet acknowledged.
  std::vector<BulkGroup> bulk_groups;
  std::uint64_t bulk_group_base = 0;
  std::uint32_t bulk_unacked = 0;
  // Ordinary stores and reductions whose writes the L2 has not yet acknowledged, and
  // whether the warp in kWaitMemory waits for them (MEMBAR.GPU / .SYS).
  std::uint32_t writes_unacked = 0;
  bool wait_writes = false;
  // N of the warp's last DEPBAR.LE SB0, N, and whether the warp in kWaitMemory waits at
  // a CCTL.IVALL for the acknowledgements of all bulk groups but the newest N.
  std::uint32_t bulk_wait_groups = 0;
  bool wait_bulk_acks = false;
  // Shared offset of the mbarrier of the warp's last arrive.expect_tx (sim/sm_tma.cc);
  // ~0: none yet.
  std::uint64_t tx_barrier = ~std::uint64_t{0};
  // Cycle at which each register can be read; kNeverCycle while a load is pending.
  std::array<std::uint64_t, 256> reg_ready{};
  // For registers waiting on a load: whether it is a shared-memory load.
  std::array<bool, 256> reg_pending_shared{};
  // Whether each register was last written by a load (sm.load_to_memory_operand_cycles).
  std::array<bool, 256> reg_loaded{};
  // Control-bit mode: the dependency scoreboards, and the state while not ready.
  WarpScoreboards scoreboards;
  WarpCycleState control_wait = WarpCycleState::kWait;
  ReuseCache reuse_cache = kEmptyReuseCache;  // operand reuse cache (sim/register_file.h)

  bool has_next() const { return next_inst.si != nullptr; }
};

}  // namespace sassim::sim
