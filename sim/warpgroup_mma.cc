#include "sim/warpgroup_mma.h"

#include <algorithm>

#include "sim/warp_scoreboards.h"

namespace sassim::sim {

WarpgroupMmaPipe::WarpgroupMmaPipe(std::uint32_t max_ctas, std::uint32_t groups_per_cta)
    : groups_per_cta_(groups_per_cta), groups_(std::size_t{max_ctas} * groups_per_cta) {}

void WarpgroupMmaPipe::reset_cta(std::uint32_t cta_slot) {
  for (std::uint32_t g = 0; g < groups_per_cta_; ++g) group(cta_slot, g) = Group{};
}

std::optional<WarpgroupMmaPipe::Started> WarpgroupMmaPipe::arrive(
    std::uint32_t cta_slot, std::uint32_t g, std::uint32_t member, std::uint32_t members,
    std::uint64_t cycle, Picos now, const Timing& timing) {
  Group& grp = group(cta_slot, g);
  const std::uint32_t index = grp.issued[member]++;
  // Operations before `index` started already or wait for other members.
  while (grp.started + grp.arrived.size() <= index) grp.arrived.push_back(0);
  // Members issue their wgmma in the same order, so only the oldest pending operation
  // can be the one all members reached.
  if (++grp.arrived[index - grp.started] < members || index != grp.started) return std::nullopt;
  grp.arrived.pop_front();
  ++grp.started;

  std::uint64_t start = std::max(cycle, free_cycle_);
  if (port_ != nullptr && shared_bytes_per_cycle_ != 0 && timing.shared_bytes != 0) {
    // The read ends `extra` cycles after this one; at full rate it takes read_cycles.
    const std::uint64_t extra = port_->read_tensor_operands(timing.shared_bytes, now);
    const std::uint64_t read_cycles =
        (timing.shared_bytes + shared_bytes_per_cycle_ - 1) / shared_bytes_per_cycle_;
    if (cycle + extra + 1 > read_cycles) start = std::max(start, cycle + extra + 1 - read_cycles);
  }
  free_cycle_ = start + timing.interval;
  ++operations_;
  busy_cycles_ += timing.interval;
  shared_bytes_ += timing.shared_bytes;
  return Started{start, start + timing.latency, timing.interval};
}

void WarpgroupMmaWarp::issued(bool commits) {
  if (groups.empty() || groups[groups.size() - 1].committed) groups.push_back(WgmmaGroup{});
  WgmmaGroup& g = groups[groups.size() - 1];
  ++g.not_started;
  g.committed = commits;
}

void WarpgroupMmaWarp::started(std::uint64_t done) {
  for (std::size_t i = 0; i < groups.size(); ++i) {
    if (groups[i].not_started == 0) continue;
    --groups[i].not_started;
    groups[i].done = std::max(groups[i].done, done);
    return;
  }
}

std::optional<std::uint64_t> WarpgroupMmaWarp::release(std::uint8_t pending) {
  std::size_t waited = groups.size();
  if (pending != kNoWgmmaPending) {
    std::size_t committed = 0;
    for (std::size_t i = 0; i < groups.size(); ++i) committed += groups[i].committed ? 1 : 0;
    waited = committed > pending ? committed - pending : 0;
  }
  std::uint64_t done = 0;
  for (std::size_t i = 0; i < waited; ++i) {
    if (groups[i].not_started != 0) return std::nullopt;
    done = std::max(done, groups[i].done);
  }
  for (std::size_t i = 0; i < waited; ++i) groups.pop_front();
  return done;
}

}  // namespace sassim::sim
