#include "sim/async_engine.h"

namespace sassim::sim {

bool is_tma_copy(isa::AsyncOp op) {
  return op == isa::AsyncOp::kTmaLoad || op == isa::AsyncOp::kTmaStore ||
         op == isa::AsyncOp::kTmaReduce || op == isa::AsyncOp::kTmaPrefetch ||
         op == isa::AsyncOp::kClusterCopy || op == isa::AsyncOp::kClusterReduce;
}

memsys::TmaKind tma_kind(isa::AsyncOp op) {
  switch (op) {
    case isa::AsyncOp::kTmaStore:
      return memsys::TmaKind::kStore;
    case isa::AsyncOp::kTmaReduce:
      return memsys::TmaKind::kReduction;
    case isa::AsyncOp::kTmaPrefetch:
      return memsys::TmaKind::kPrefetch;
    case isa::AsyncOp::kClusterCopy:
    case isa::AsyncOp::kClusterReduce:
      return memsys::TmaKind::kSharedCopy;
    default:
      return memsys::TmaKind::kLoad;
  }
}

bool writes_global(isa::AsyncOp op) {
  return op == isa::AsyncOp::kTmaStore || op == isa::AsyncOp::kTmaReduce;
}

// Entries leave after a fixed latency, at most one per sub-core per cycle enters.
AsyncEngine::AsyncEngine(const config::GpuConfig& config, Clock core)
    : clock_(core),
      stage_(config.sm().sub_cores() * (config.sm().units().memory().latency_cycles() + 1) + 64) {}

memsys::TmaCopy& AsyncEngine::stage(std::uint32_t token, std::uint32_t ack_token, Picos now,
                                    std::uint64_t latency) {
  if (copies_.size() <= token) copies_.resize(token + 1);
  memsys::TmaCopy& copy = copies_[token];
  copy.token = token;
  copy.ack_token = ack_token;
  stage_.push(token, now, now + clock_.edge(latency));
  return copy;
}

}  // namespace sassim::sim
