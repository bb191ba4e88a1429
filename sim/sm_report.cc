// What an SM reports: its statistics at the end of a run and the state dump of a
// stalled simulation.
#include <fmt/format.h>

#include "isa/flops.h"
#include "sim/sm.h"

namespace sassim::sim {

std::string Sm::describe_state() const {
  std::array<unsigned, 6> by_state{};
  const Warp* oldest = nullptr;
  for (const Warp& w : warps_) {
    ++by_state[static_cast<std::size_t>(w.state)];
    if (w.state != WarpState::kFree && (oldest == nullptr || w.age < oldest->age)) oldest = &w;
  }
  std::string out = fmt::format(
      "{} CTAs resident; warps running {}, at barrier {}, waiting on memory {}, draining {}, "
      "waiting on an mbarrier {}; {} memory accesses in flight",
      resident_ctas_, by_state[1], by_state[2], by_state[3], by_state[4], by_state[5],
      port_.outstanding());
  if (oldest != nullptr && oldest->has_next()) {
    out += fmt::format("; oldest warp at PC {:#06x}, ready at cycle {}, {} accesses outstanding",
                       oldest->next_inst.si->pc,
                       oldest->ready_cycle == kNeverCycle ? std::string("(load pending)")
                                                          : std::to_string(oldest->ready_cycle),
                       oldest->outstanding);
  }
  return out;
}

void Sm::report(StatSink& sink) const {
  sink.add_counter(name_, "warp_insts", static_cast<double>(counters_.warp_insts));
  sink.add_counter(name_, "ctas", static_cast<double>(counters_.ctas));
  sink.add_counter(name_, "busy_cycles", static_cast<double>(counters_.busy_cycles));
  sink.add_counter(name_, "issue_cycles", static_cast<double>(counters_.issue_cycles));
  sink.add_counter(name_, "barrier_waits", static_cast<double>(counters_.barrier_waits));
  sink.add_counter(name_, "register_bank_conflicts",
                   static_cast<double>(counters_.register_bank_conflicts));
  sink.add_counter(name_, "tensor_busy_cycles", static_cast<double>(counters_.tensor_busy_cycles));
  report_tensor(sink);
  const FrontendCounters& fetch = frontend_.counters();
  sink.add_counter(name_, "fetches", static_cast<double>(fetch.fetches));
  sink.add_counter(name_, "l0i.hits", static_cast<double>(fetch.l0i_hits));
  sink.add_counter(name_, "l0i.misses", static_cast<double>(fetch.l0i_misses));
  sink.add_counter(name_, "l1i.hits", static_cast<double>(fetch.l1i_hits));
  sink.add_counter(name_, "l1i.misses", static_cast<double>(fetch.l1i_misses));
  sink.add_counter(name_, "stream_buffer.hits", static_cast<double>(fetch.stream_buffer_hits));
  sink.add_counter(name_, "stream_buffer.prefetches", static_cast<double>(fetch.prefetches));
  sink.add_counter(name_, "taken_branches", static_cast<double>(fetch.taken_branches));
  const std::array<std::uint64_t, kNumWarpCycleStates> cycles = warp_cycles();
  for (std::size_t k = 0; k < kNumWarpCycleStates; ++k) {
    sink.add_counter(name_, "warp_cycles", warp_cycle_state_name(static_cast<WarpCycleState>(k)),
                     static_cast<double>(cycles[k]));
  }
  for (std::size_t k = 1; k < isa::kNumFlopKinds; ++k) {
    sink.add_counter(name_, "flops", isa::flop_kind_name(static_cast<isa::FlopKind>(k)),
                     counters_.flops[k]);
  }
  for (std::size_t u = 0; u < isa::kNumUnitClasses; ++u) {
    sink.add_counter(name_, "insts", isa::unit_class_name(static_cast<isa::UnitClass>(u)),
                     static_cast<double>(counters_.insts_by_unit[u]));
  }
}

}  // namespace sassim::sim
