#include "multigpu/rank_sync.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "traces/collective_line.h"

namespace sassim::multigpu {

class RankSync::Port final : public sim::CollectivePort {
 public:
  Port(RankSync& sync, std::size_t player) : sync_(sync), player_(player) {}
  std::optional<Picos> arrive(std::size_t index, Picos now) override {
    return sync_.arrive(player_, index, now);
  }
  Charge charge(std::size_t index) const override { return sync_.charge(player_, index); }
  Picos next_sync(Picos now) const override {
    const Picos step = sync_.lookahead_;
    return step == kNever ? kNever : (now / step + 1) * step;
  }
  std::vector<Finished> sync(Picos now, bool idle) override {
    return sync_.sync(player_, now, idle);
  }

 private:
  RankSync& sync_;
  std::size_t player_;
};

RankSync::RankSync(std::vector<CollectiveInstance> instances, std::vector<Player> players,
                   bool charge)
    : instances_(std::move(instances)),
      players_(std::move(players)),
      takers_(instances_.size()),
      charge_(charge),
      barrier_(static_cast<std::ptrdiff_t>(players_.size()), Resolve{this}),
      idle_(players_.size(), 0),
      left_(players_.size(), 0),
      told_(players_.size()),
      times_(players_.size(), 0) {
  for (std::size_t p = 0; p < players_.size(); ++p) {
    ports_.push_back(std::make_unique<Port>(*this, p));
    for (std::size_t i = 0; i < players_[p].instances.size(); ++i)
      takers_.at(players_[p].instances[i]).emplace_back(p, i);
  }
  for (CollectiveInstance& instance : instances_) {
    instance.arrivals.assign(instance.call.ranks.size(), std::nullopt);
    lookahead_ =
        std::min(lookahead_, static_cast<Picos>(std::max<int64_t>(instance.result.time_ps, 1)));
  }
}

RankSync::~RankSync() = default;

sim::CollectivePort& RankSync::port(std::size_t p) {
  return *ports_.at(p);
}

std::optional<Picos> RankSync::arrive(std::size_t p, std::size_t index, Picos now) {
  const std::lock_guard lock(mutex_);
  CollectiveInstance& instance = instances_.at(players_[p].instances.at(index));
  const std::vector<std::uint32_t>& own = players_[p].ranks;
  std::optional<Picos> start = now;
  for (std::size_t m = 0; m < instance.call.ranks.size(); ++m) {
    std::optional<Picos>& arrival = instance.arrivals[m];
    if (std::find(own.begin(), own.end(), instance.call.ranks[m]) != own.end()) {
      arrival = now;
    } else if (!arrival || *arrival >= times_[p]) {
      start.reset();
    } else if (start) {
      start = std::max(*start, *arrival);
    }
  }
  return start;
}

sim::CollectivePort::Charge RankSync::charge(std::size_t p, std::size_t index) const {
  const CollectiveInstance& instance = instances_.at(players_[p].instances.at(index));
  sim::CollectivePort::Charge c;
  c.time_ps = static_cast<Picos>(std::max<int64_t>(instance.result.time_ps, 0));
  if (!charge_) return c;
  for (std::uint32_t rank : instance.call.ranks) {
    if (std::find(players_[p].ranks.begin(), players_[p].ranks.end(), rank) ==
        players_[p].ranks.end())
      continue;
    for (const system::GpuSide& side : instance.result.gpus) {
      if (side.rank != rank) continue;
      c.sms = side.sms;
      c.memory_read_bytes = side.memory_read_bytes;
      c.memory_write_bytes = side.memory_write_bytes;
      return c;
    }
  }
  return c;
}

std::vector<sim::CollectivePort::Finished> RankSync::sync(std::size_t p, Picos now, bool idle) {
  idle_[p] = idle ? 1 : 0;
  times_[p] = now;
  barrier_.arrive_and_wait();
  if (!error_.empty()) throw Error(error_);  // a deadlock: every player says so
  if (aborted_.load())
    throw RunAborted("the run stopped: another GPU of the system failed or stopped");
  return std::exchange(told_[p], {});
}

void RankSync::leave(std::size_t p, bool ended_normally) {
  left_[p] = 1;
  if (!ended_normally) aborted_.store(true);
  barrier_.arrive_and_drop();
}

void RankSync::resolve() {
  Picos t = 0;
  bool all_idle = true, anyone = false;
  for (std::size_t p = 0; p < players_.size(); ++p) {
    if (left_[p]) continue;
    anyone = true;
    t = std::max(t, times_[p]);
    all_idle = all_idle && idle_[p];
  }
  if (!anyone || aborted_.load()) return;
  ++syncs_;
  const std::lock_guard lock(mutex_);
  bool progress = false;
  for (std::size_t k = 0; k < instances_.size(); ++k) {
    CollectiveInstance& instance = instances_[k];
    if (instance.resolved) {
      progress = progress || instance.end >= t;
      continue;
    }
    if (!std::all_of(instance.arrivals.begin(), instance.arrivals.end(),
                     [](const std::optional<Picos>& a) { return a.has_value(); }))
      continue;
    instance.start = 0;
    for (const auto& a : instance.arrivals) instance.start = std::max(instance.start, *a);
    instance.end = instance.start + static_cast<Picos>(instance.result.time_ps);
    instance.resolved = true;
    progress = true;
    if (instance.end < t) {
      error_ = fmt::format("internal: {} ends at {} ps, before the sync at {} ps",
                           instance.describe(), instance.end, t);
      return;
    }
    for (const auto& [player, index] : takers_[k]) told_[player].push_back({index, instance.end});
  }
  if (all_idle && !progress) error_ = deadlock_message();
}

std::string RankSync::deadlock_message() const {
  std::string waits;
  for (const CollectiveInstance& instance : instances_) {
    if (instance.resolved) continue;
    std::vector<std::uint32_t> missing, arrived;
    for (std::size_t m = 0; m < instance.call.ranks.size(); ++m)
      (instance.arrivals[m] ? arrived : missing).push_back(instance.call.ranks[m]);
    if (arrived.empty()) continue;
    waits += fmt::format("\n  {} waits for rank(s) {} (arrived: {})", instance.describe(),
                         traces::format_ranks(missing), traces::format_ranks(arrived));
  }
  return "every GPU of the system waits on a collective that some rank never reaches (do the "
         "ranks call their communicators' collectives in the same order?):" +
         waits;
}

}  // namespace sassim::multigpu
