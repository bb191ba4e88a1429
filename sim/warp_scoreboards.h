#pragma once
// The dependency scoreboards of one warp in control-bit mode (sim/control_bits.h):
// what an issued instruction's control bits do to them, what a completed memory access
// releases, and when the next instruction may issue.
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/operand_reuse.h"
#include "sim/warp_state.h"

namespace sassim::sim {

inline constexpr std::uint8_t kNoScoreboard = 7;
inline constexpr std::size_t kNumScoreboards = 6;

// The control bits of one static instruction of a trace, from its listing.
inline constexpr std::uint8_t kNoWgmmaPending = 0xff;

struct ControlEntry {
  std::uint8_t stall = 1;  // cycles from this issue to the warp's next (at least 1)
  bool yield = false;
  std::uint8_t write_sb = kNoScoreboard;
  std::uint8_t read_sb = kNoScoreboard;
  std::uint8_t wait_mask = 0;
  std::uint8_t depbar_sb = kNoScoreboard;  // DEPBAR.LE SBx, N: x
  std::uint8_t depbar_max = 0;             // and N
  bool async_group = false;  // LDGDEPBAR: its write barrier waits for the earlier LDGSTS
  // UTMACMDFLUSH: its read barrier waits until the earlier TMA stores and reductions
  // have read their shared-memory source (cp.async.bulk.wait_group.read).
  bool bulk_commit = false;
  // A warpgroup matrix instruction ending with gsb0: it closes a wgmma group
  // (wgmma.commit_group).
  bool wgmma_commit = false;
  // WARPGROUP.DEPBAR.LE gsb0, N: N, the committed wgmma groups that may stay pending.
  std::uint8_t wgmma_pending = kNoWgmmaPending;
  OperandSlots operands;  // registers by operand position and reuse flags
};

// One warp's dependency scoreboards.
struct WarpScoreboards {
  // Producers whose results come back from the memory system, per scoreboard.
  std::array<std::uint8_t, kNumScoreboards> pending{};
  // Cycle by which the fixed-time producers of each scoreboard are done.
  std::array<std::uint64_t, kNumScoreboards> release{};
  // Cycle from which a memory instruction may read the registers of each scoreboard's
  // completed loads (sm.load_to_memory_operand_cycles).
  std::array<std::uint64_t, kNumScoreboards> memory_operand_ready{};
  std::uint8_t short_mask = 0;     // scoreboards last set by a shared-memory or MIO producer
  std::uint32_t async_issued = 0;  // LDGSTS accesses issued and completed
  std::uint32_t async_done = 0;
  // LDGDEPBAR groups not yet complete: (LDGSTS issued before it, its scoreboard).
  std::vector<std::pair<std::uint32_t, std::uint8_t>> groups;
  // TMA stores and reductions issued and with their source read (counted in both
  // modes), and the UTMACMDFLUSH groups not yet read: (stores issued before it, its
  // read barrier).
  std::uint32_t bulk_issued = 0;
  std::uint32_t bulk_read = 0;
  std::vector<std::pair<std::uint32_t, std::uint8_t>> bulk_groups;
};

// What an issued instruction does to the scoreboards.
struct ControlIssue {
  std::uint64_t cycle = 0;         // issue cycle
  std::uint32_t latency = 0;       // result latency of a fixed-time instruction
  std::uint32_t read_latency = 1;  // cycles until its sources have been read
  bool memory = false;             // an access goes to the memory system
  bool shared = false;             // ... to shared memory
  bool async_copy = false;         // ... an LDGSTS
};
// Updates the scoreboards; returns the earliest cycle of the warp's next issue.
std::uint64_t control_issue(WarpScoreboards& sb, const ControlEntry& e, const ControlIssue& issue);
// A memory access of the warp completed; `write_sb` is its instruction's write barrier,
// and a memory instruction waiting on it may issue from `memory_operand_ready` on.
void control_complete(WarpScoreboards& sb, std::uint8_t write_sb, bool async_copy,
                      std::uint64_t memory_operand_ready = 0);
// A TMA store or reduction of the warp has read its source from shared memory.
void control_bulk_read(WarpScoreboards& sb);

// When the instruction `e` may issue at the earliest, given `earliest` from the stall
// count (kNeverCycle while a scoreboard waits for memory), and the state the warp is
// in until then. `memory`: the instruction is a memory instruction.
struct ControlReady {
  std::uint64_t cycle = 0;
  WarpCycleState state = WarpCycleState::kWait;
};
ControlReady control_ready(const WarpScoreboards& sb, const ControlEntry& e, std::uint64_t earliest,
                           bool memory = false);

}  // namespace sassim::sim
