#pragma once
// A multi-GPU system (a validated SystemConfig, its topology) and the simulation of
// collective calls on it: the API the per-rank trace replay and `sassim collective` use.
#include <cstdint>
#include <utility>
#include <vector>

#include "configs/system_config.pb.h"
#include "system/collective.h"
#include "system/plans.h"
#include "system/topology.h"

namespace sassim::system {

class SystemModel {
 public:
  // `config` must be validated (load_system_config / parse_system_config).
  explicit SystemModel(config::SystemConfig config);

  const config::SystemConfig& config() const { return config_; }
  const Topology& topology() const { return topology_; }
  uint32_t gpu_count() const { return topology_.gpu_count(); }

  // Simulates one call: the algorithm and protocol the call names, or, for kAuto, those
  // of least predicted time (predict_ps; ties go to the earlier candidate). Throws
  // sassim::Error for ranks that are not GPUs of the system, fewer than 2 ranks, or an
  // algorithm or protocol the call cannot use here (the message says why).
  CollectiveResult run(const CollectiveCall& call) const;

  // The (algorithm, protocol) pairs the call may use on this system, in preference order.
  std::vector<std::pair<Algorithm, Protocol>> candidates(const CollectiveCall& call) const;
  // The tuner's estimate, as NCCL's: a fixed latency (the base latency plus the simulated
  // time of the call with one element per rank on one channel) plus the bytes over the
  // bandwidth of the most loaded link (or program, at its rate limit).
  int64_t predict_ps(const CollectiveCall& call, Algorithm algorithm, Protocol protocol) const;

 private:
  std::vector<uint32_t> ranks_of(const CollectiveCall& call) const;
  const config::ProtocolConfig& protocol_config(Protocol protocol) const;
  uint32_t channels_for(const CollectiveCall& call, Algorithm algorithm, Protocol protocol,
                        uint32_t ranks) const;
  PlanShape shape_for(const CollectiveCall& call, Algorithm algorithm, Protocol protocol,
                      uint32_t channels) const;
  TransferPlan plan_for(const CollectiveCall& call, Algorithm algorithm, uint64_t bytes,
                        const PlanShape& shape) const;
  int64_t base_latency_ps(Algorithm algorithm, Protocol protocol) const;
  bool nvls_possible(const std::vector<uint32_t>& ranks) const;

  config::SystemConfig config_;
  Topology topology_;
};

}  // namespace sassim::system
