#include "system/link_simulator.h"

#include <algorithm>
#include <queue>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::system {

namespace {

enum class EventKind : uint8_t { kIssue, kHop, kArrive };

struct Event {
  int64_t time_ps;
  uint64_t sequence;
  uint32_t transfer;
  uint32_t hop;
  EventKind kind;
  bool operator>(const Event& o) const {
    return time_ps != o.time_ps ? time_ps > o.time_ps : sequence > o.sequence;
  }
};

struct TransferState {
  uint32_t pending = 0;  // deps not yet arrived + the program predecessor not yet issued
  int64_t ready_ps = 0;  // when the last of them arrived (or was issued)
  int64_t tail_ps = 0;   // when the tail reaches the current link
};

class Simulation {
 public:
  Simulation(const TransferPlan& plan, Router& router, const SimulationOptions& options)
      : plan_(plan), router_(router), options_(options), state_(plan.size()) {
    const Topology& topo = router.topology();
    result_.link_bytes.assign(topo.links().size(), 0);
    result_.link_busy_ps.assign(topo.links().size(), 0);
    result_.gpu_read_bytes.assign(topo.gpu_count(), 0);
    result_.gpu_write_bytes.assign(topo.gpu_count(), 0);
    result_.gpu_programs.assign(topo.gpu_count(), 0);
    result_.arrival_ps.assign(plan.size(), -1);
    for (uint32_t p = 0; p < plan.program_count(); ++p)
      ++result_.gpu_programs.at(plan.program_rank(p));
    link_free_.assign(topo.links().size(), 0);
    program_free_.assign(plan.program_count(), 0);
    build_dependents();
  }

  SimulationResult run() {
    for (uint32_t t = 0; t < plan_.size(); ++t) {
      if (state_[t].pending == 0) push(0, t, 0, EventKind::kIssue);
    }
    while (!events_.empty()) {
      const Event e = events_.top();
      events_.pop();
      switch (e.kind) {
        case EventKind::kIssue:
          issue(e.transfer, e.time_ps);
          break;
        case EventKind::kHop:
          hop(e.transfer, e.hop, e.time_ps);
          break;
        case EventKind::kArrive:
          arrive(e.transfer, e.time_ps);
          break;
      }
    }
    for (uint32_t t = 0; t < plan_.size(); ++t) {
      if (result_.arrival_ps[t] < 0) {
        throw Error(fmt::format("transfer {} of the plan never ran (a dependency cycle)", t));
      }
    }
    return std::move(result_);
  }

 private:
  void build_dependents() {
    dependent_begin_.assign(plan_.size() + 1, 0);
    for (uint32_t t = 0; t < plan_.size(); ++t) {
      for (uint32_t d : plan_.deps_of(t)) ++dependent_begin_[d + 1];
      state_[t].pending = static_cast<uint32_t>(plan_.deps_of(t).size()) +
                          (plan_.program_predecessor(t) >= 0 ? 1 : 0);
    }
    for (std::size_t i = 1; i < dependent_begin_.size(); ++i) {
      dependent_begin_[i] += dependent_begin_[i - 1];
    }
    dependents_.resize(dependent_begin_.back());
    std::vector<uint32_t> fill(dependent_begin_.begin(), dependent_begin_.end() - 1);
    for (uint32_t t = 0; t < plan_.size(); ++t) {
      for (uint32_t d : plan_.deps_of(t)) dependents_[fill[d]++] = t;
    }
    next_in_program_.assign(plan_.size(), -1);
    for (uint32_t t = 0; t < plan_.size(); ++t) {
      const int64_t prev = plan_.program_predecessor(t);
      if (prev >= 0) next_in_program_[static_cast<std::size_t>(prev)] = t;
    }
  }

  void push(int64_t time, uint32_t transfer, uint32_t hop, EventKind kind) {
    events_.push(Event{time, sequence_++, transfer, hop, kind});
  }

  void release(uint32_t t, int64_t time) {
    TransferState& s = state_[t];
    s.ready_ps = std::max(s.ready_ps, time);
    if (--s.pending == 0) push(s.ready_ps, t, 0, EventKind::kIssue);
  }

  void issue(uint32_t t, int64_t time) {
    const Transfer& tr = plan_.transfer(t);
    if (next_in_program_[t] >= 0) release(static_cast<uint32_t>(next_in_program_[t]), time);
    const Topology& topo = router_.topology();
    if (const int rank = topo.gpu_rank(tr.from); rank >= 0) {
      result_.gpu_read_bytes[static_cast<std::size_t>(rank)] += tr.payload_bytes;
    }
    int64_t head = time;
    int64_t tail = time;
    if (options_.program_bytes_per_s > 0) {
      int64_t& free = program_free_[tr.program];
      head = std::max(time, free);
      tail = head + serialization_ps(tr.payload_bytes, options_.program_bytes_per_s);
      free = tail;
    }
    if (tr.from == tr.to || router_.route(tr.from, tr.to).empty()) {
      throw Error(fmt::format("transfer {} goes from {} to itself", t, topo.vertex(tr.from).name));
    }
    state_[t].tail_ps = tail;
    push(head, t, 0, EventKind::kHop);
  }

  void hop(uint32_t t, uint32_t k, int64_t head) {
    const Transfer& tr = plan_.transfer(t);
    const std::vector<uint32_t>& route = router_.route(tr.from, tr.to);
    const uint32_t id = route[k];
    const Link& link = router_.topology().link(id);
    const int64_t start = std::max(head, link_free_[id]);
    const int64_t end =
        std::max(start + serialization_ps(tr.wire_bytes, link.bytes_per_s), state_[t].tail_ps);
    link_free_[id] = end;
    result_.link_bytes[id] += tr.wire_bytes;
    result_.link_busy_ps[id] += end - start;
    state_[t].tail_ps = end + link.latency_ps;
    if (k + 1 < route.size()) {
      push(start + link.latency_ps, t, k + 1, EventKind::kHop);
      return;
    }
    // The step takes at least the protocol's step latency, which includes the links'.
    const int64_t floor = std::max<int64_t>(0, step_latency(route) - route_latency_ps(route));
    push(end + link.latency_ps + floor, t, 0, EventKind::kArrive);
  }

  void arrive(uint32_t t, int64_t time) {
    const Transfer& tr = plan_.transfer(t);
    result_.arrival_ps[t] = time;
    result_.makespan_ps = std::max(result_.makespan_ps, time);
    if (const int rank = router_.topology().gpu_rank(tr.to); rank >= 0) {
      const auto r = static_cast<std::size_t>(rank);
      result_.gpu_write_bytes[r] += tr.payload_bytes;
      if (tr.reduce) result_.gpu_read_bytes[r] += tr.payload_bytes;
    }
    for (uint32_t i = dependent_begin_[t]; i < dependent_begin_[t + 1]; ++i) {
      release(dependents_[i], time);
    }
  }

  int64_t route_latency_ps(const std::vector<uint32_t>& route) const {
    int64_t total = 0;
    for (uint32_t id : route) total += router_.topology().link(id).latency_ps;
    return total;
  }

  int64_t step_latency(const std::vector<uint32_t>& route) const {
    bool pcie = false;
    for (uint32_t id : route) {
      const LinkKind kind = router_.topology().link(id).kind;
      if (kind == LinkKind::kNetwork) return options_.net_step_ps;
      pcie = pcie || kind == LinkKind::kPcie;
    }
    return pcie ? options_.pcie_step_ps : options_.nvlink_step_ps;
  }

  const TransferPlan& plan_;
  Router& router_;
  SimulationOptions options_;
  std::vector<TransferState> state_;
  std::vector<uint32_t> dependent_begin_;
  std::vector<uint32_t> dependents_;
  std::vector<int64_t> next_in_program_;
  std::vector<int64_t> link_free_;
  std::vector<int64_t> program_free_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  uint64_t sequence_ = 0;
  SimulationResult result_;
};

}  // namespace

// bytes x 10^12 overflows 64 bits above 18 MB.
__extension__ typedef unsigned __int128 Uint128;

int64_t serialization_ps(uint64_t bytes, uint64_t bytes_per_s) {
  const Uint128 scaled = static_cast<Uint128>(bytes) * 1'000'000'000'000u;
  return static_cast<int64_t>((scaled + bytes_per_s - 1) / bytes_per_s);
}

SimulationResult simulate(const TransferPlan& plan, Router& router,
                          const SimulationOptions& options) {
  return Simulation(plan, router, options).run();
}

}  // namespace sassim::system
