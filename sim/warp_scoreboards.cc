#include "sim/warp_scoreboards.h"

#include <algorithm>
#include <limits>

namespace sassim::sim {
namespace {

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

}  // namespace

std::uint64_t control_issue(WarpScoreboards& sb, const ControlEntry& e, const ControlIssue& issue) {
  if (e.read_sb != kNoScoreboard && e.bulk_commit && sb.bulk_read < sb.bulk_issued) {
    // A memory producer: released when the group's last source has been read.
    ++sb.pending[e.read_sb];
    sb.bulk_groups.emplace_back(sb.bulk_issued, e.read_sb);
    sb.short_mask &= static_cast<std::uint8_t>(~(1U << e.read_sb));
  } else if (e.read_sb != kNoScoreboard) {
    std::uint64_t& r = sb.release[e.read_sb];
    r = std::max(r, issue.cycle + issue.read_latency);
  }
  if (issue.memory && issue.async_copy) ++sb.async_issued;
  if (e.write_sb != kNoScoreboard) {
    const auto bit = static_cast<std::uint8_t>(1U << e.write_sb);
    if (issue.memory) {
      ++sb.pending[e.write_sb];
      sb.short_mask = issue.shared ? sb.short_mask | bit : sb.short_mask & ~bit;
    } else if (e.async_group && sb.async_done < sb.async_issued) {
      ++sb.pending[e.write_sb];
      sb.groups.emplace_back(sb.async_issued, e.write_sb);
      sb.short_mask &= static_cast<std::uint8_t>(~bit);
    } else {
      // Variable-latency arithmetic (MUFU, S2R, ...): an MIO producer.
      std::uint64_t& r = sb.release[e.write_sb];
      r = std::max(r, issue.cycle + std::max<std::uint32_t>(issue.latency, 1));
      sb.short_mask |= bit;
    }
  }
  return issue.cycle + e.stall;
}

void control_complete(WarpScoreboards& sb, std::uint8_t write_sb, bool async_copy,
                      std::uint64_t memory_operand_ready) {
  if (write_sb != kNoScoreboard && sb.pending[write_sb] > 0) {
    --sb.pending[write_sb];
    std::uint64_t& m = sb.memory_operand_ready[write_sb];
    m = std::max(m, memory_operand_ready);
  }
  if (!async_copy) return;
  ++sb.async_done;
  while (!sb.groups.empty() && sb.groups.front().first <= sb.async_done) {
    --sb.pending[sb.groups.front().second];
    sb.groups.erase(sb.groups.begin());
  }
}

void control_bulk_read(WarpScoreboards& sb) {
  ++sb.bulk_read;
  while (!sb.bulk_groups.empty() && sb.bulk_groups.front().first <= sb.bulk_read) {
    --sb.pending[sb.bulk_groups.front().second];
    sb.bulk_groups.erase(sb.bulk_groups.begin());
  }
}

ControlReady control_ready(const WarpScoreboards& sb, const ControlEntry& e, std::uint64_t earliest,
                           bool memory) {
  std::uint64_t ready = earliest;
  std::uint8_t blocking = 0;  // scoreboards that hold the instruction
  auto wait_for = [&](std::uint8_t b, std::uint8_t max_pending) {
    const std::uint64_t release = memory && max_pending == 0
                                      ? std::max(sb.release[b], sb.memory_operand_ready[b])
                                      : sb.release[b];
    if (sb.pending[b] > max_pending) {
      ready = kNever;
      blocking |= static_cast<std::uint8_t>(1U << b);
    } else if (max_pending == 0 && release > earliest && ready != kNever) {
      ready = std::max(ready, release);
      blocking |= static_cast<std::uint8_t>(1U << b);
    }
  };
  for (std::uint8_t b = 0; b < kNumScoreboards; ++b) {
    if ((e.wait_mask >> b) & 1U) wait_for(b, 0);
  }
  if (e.depbar_sb != kNoScoreboard) wait_for(e.depbar_sb, e.depbar_max);
  if (blocking == 0) return {ready, WarpCycleState::kWait};
  // Long scoreboard when any holding scoreboard waits for global or local memory.
  const bool long_wait = (blocking & ~sb.short_mask) != 0;
  return {ready, long_wait ? WarpCycleState::kLongScoreboard : WarpCycleState::kShortScoreboard};
}

}  // namespace sassim::sim
