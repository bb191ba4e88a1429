#include "system/system_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <fmt/format.h>

#include "ground/error.h"
#include "system/link_simulator.h"
#include "system/router.h"

namespace sassim::system {

namespace {

int64_t us_to_ps(double us) {
  return std::llround(us * 1e6);
}

bool is_p2p(CollectiveOp op) {
  return op == CollectiveOp::kAllToAll || op == CollectiveOp::kSendRecv ||
         op == CollectiveOp::kSend;
}

// Payload one step slice carries in the bandwidth estimate: large enough for one slice.
constexpr uint64_t kOneSlice = uint64_t{1} << 62;

}  // namespace

SystemModel::SystemModel(config::SystemConfig config)
    : config_(std::move(config)), topology_(build_topology(config_)) {}

std::vector<uint32_t> SystemModel::ranks_of(const CollectiveCall& call) const {
  std::vector<uint32_t> ranks = call.ranks;
  if (ranks.empty()) {
    for (uint32_t r = 0; r < gpu_count(); ++r) ranks.push_back(r);
  }
  std::set<uint32_t> seen;
  for (uint32_t r : ranks) {
    if (r >= gpu_count()) {
      throw Error(fmt::format("rank {} is not a GPU of the system (it has {})", r, gpu_count()));
    }
    if (!seen.insert(r).second) throw Error(fmt::format("rank {} appears twice", r));
  }
  if (ranks.size() < 2) throw Error("a collective needs at least 2 ranks");
  return ranks;
}

const config::ProtocolConfig& SystemModel::protocol_config(Protocol protocol) const {
  switch (protocol) {
    case Protocol::kLl:
      return config_.comm().ll();
    case Protocol::kLl128:
      return config_.comm().ll128();
    default:
      return config_.comm().simple();
  }
}

bool SystemModel::nvls_possible(const std::vector<uint32_t>& ranks) const {
  if (!config_.nvswitch().nvls()) return false;
  const uint32_t node = topology_.vertex(topology_.gpu_vertex(ranks[0])).node;
  return std::all_of(ranks.begin(), ranks.end(), [&](uint32_t r) {
    return topology_.vertex(topology_.gpu_vertex(r)).node == node;
  });
}

std::vector<std::pair<Algorithm, Protocol>> SystemModel::candidates(
    const CollectiveCall& call) const {
  const std::vector<uint32_t> ranks = ranks_of(call);
  std::vector<std::pair<Algorithm, Protocol>> all;
  const Protocol protocols[] = {Protocol::kLl, Protocol::kLl128, Protocol::kSimple};
  if (is_p2p(call.op)) {
    all = {{Algorithm::kP2p, Protocol::kLl}, {Algorithm::kP2p, Protocol::kSimple}};
  } else {
    for (Protocol p : protocols) all.emplace_back(Algorithm::kRing, p);
    if (call.op == CollectiveOp::kAllReduce) {
      for (Protocol p : protocols) all.emplace_back(Algorithm::kTree, p);
    }
    if (nvls_possible(ranks)) all.emplace_back(Algorithm::kNvls, Protocol::kSimple);
  }
  std::vector<std::pair<Algorithm, Protocol>> chosen;
  for (const auto& [a, p] : all) {
    if ((call.algorithm == Algorithm::kAuto || call.algorithm == a) &&
        (call.protocol == Protocol::kAuto || call.protocol == p)) {
      chosen.emplace_back(a, p);
    }
  }
  if (chosen.empty()) {
    std::string offered;
    for (const auto& [a, p] : all) {
      offered += fmt::format("{}{}/{}", offered.empty() ? "" : ", ", name_of(a), name_of(p));
    }
    throw Error(fmt::format(
        "{} with algorithm {} and protocol {} is not possible on {} for these ranks "
        "(possible: {}; nvls needs nvswitch.nvls and ranks of one node, tree runs all_reduce)",
        name_of(call.op), name_of(call.algorithm), name_of(call.protocol), config_.name(),
        offered));
  }
  return chosen;
}

uint32_t SystemModel::channels_for(const CollectiveCall& call, Algorithm algorithm,
                                   Protocol protocol, uint32_t ranks) const {
  const config::CommLibraryConfig& comm = config_.comm();
  if (algorithm == Algorithm::kP2p) return comm.p2p_channels_per_peer();
  const config::ProtocolConfig& p = protocol_config(protocol);
  const uint32_t most = algorithm == Algorithm::kNvls ? comm.nvls_channels() : comm.max_channels();
  uint64_t per_channel = uint64_t{p.threads()} * p.bytes_per_thread_per_channel();
  // NCCL raises the ring LL threshold n-fold: each channel's LL ring moves n parts.
  if (algorithm == Algorithm::kRing && protocol == Protocol::kLl) per_channel *= ranks;
  return static_cast<uint32_t>(std::clamp<uint64_t>(call.bytes / per_channel, 1, most));
}

PlanShape SystemModel::shape_for(const CollectiveCall& call, Algorithm algorithm, Protocol protocol,
                                 uint32_t channels) const {
  const config::ProtocolConfig& p = protocol_config(protocol);
  PlanShape shape;
  shape.topology = &topology_;
  shape.ranks = ranks_of(call);
  shape.channels = channels;
  shape.step_bytes = p.step_bytes();
  shape.max_slices = config_.comm().max_slices_per_step();
  shape.wire_per_payload = 1.0 / p.payload_fraction();
  if (algorithm == Algorithm::kNvls) shape.wire_per_payload /= config_.nvswitch().nvls_efficiency();
  return shape;
}

TransferPlan SystemModel::plan_for(const CollectiveCall& call, Algorithm algorithm, uint64_t bytes,
                                   const PlanShape& shape) const {
  const auto n = static_cast<uint32_t>(shape.ranks.size());
  switch (algorithm) {
    case Algorithm::kRing:
      return ring_plan(call.op, bytes, shape);
    case Algorithm::kTree:
      return tree_plan(bytes, shape);
    case Algorithm::kNvls:
      return nvls_plan(call.op, bytes, shape);
    default:
      break;
  }
  std::vector<Flow> flows;
  if (call.op == CollectiveOp::kAllToAll) {
    // As NCCL orders its peers: in round i every rank sends to the one i places after it,
    // so that no two senders start on the same receiver.
    const std::vector<uint64_t> parts = split_bytes(bytes, n);
    for (uint32_t i = 1; i < n; ++i) {
      for (uint32_t r = 0; r < n; ++r) {
        const uint32_t to = (r + i) % n;
        flows.push_back(Flow{shape.ranks[r], shape.ranks[to], parts[to]});
      }
    }
  } else if (call.op == CollectiveOp::kSendRecv) {
    for (uint32_t i = 0; i < n; ++i)
      flows.push_back(Flow{shape.ranks[i], shape.ranks[(i + 1) % n], bytes});
  } else {
    flows.push_back(Flow{shape.ranks[0], shape.ranks[1], bytes});
  }
  return p2p_plan(flows, shape);
}

int64_t SystemModel::base_latency_ps(Algorithm algorithm, Protocol protocol) const {
  if (algorithm == Algorithm::kNvls) return us_to_ps(config_.comm().nvls_base_latency_us());
  return us_to_ps(protocol_config(protocol).base_latency_us());
}

namespace {

SimulationOptions options_of(const config::ProtocolConfig& p, Algorithm algorithm) {
  SimulationOptions o;
  // NVLS steps are multimem loads and stores: no flags between steps.
  if (algorithm != Algorithm::kNvls) {
    o.nvlink_step_ps = us_to_ps(p.nvlink_step_latency_us());
    o.pcie_step_ps = us_to_ps(p.pcie_step_latency_us());
    o.net_step_ps = us_to_ps(p.net_step_latency_us());
  }
  o.program_bytes_per_s = static_cast<uint64_t>(std::llround(p.channel_max_gb_per_s() * 1e9));
  return o;
}

}  // namespace

int64_t SystemModel::predict_ps(const CollectiveCall& call, Algorithm algorithm,
                                Protocol protocol) const {
  const config::ProtocolConfig& p = protocol_config(protocol);
  const SimulationOptions options = options_of(p, algorithm);
  Router router(topology_);
  // Latency: one element per rank on one channel.
  const PlanShape tiny = shape_for(call, algorithm, protocol, 1);
  const uint64_t tiny_bytes = tiny.ranks.size() * size_of(call.type);
  const int64_t latency =
      simulate(plan_for(call, algorithm, tiny_bytes, tiny), router, options).makespan_ps;
  // Bandwidth: the bytes each link and program carries, one slice per step.
  PlanShape full =
      shape_for(call, algorithm, protocol,
                channels_for(call, algorithm, protocol, static_cast<uint32_t>(tiny.ranks.size())));
  full.step_bytes = kOneSlice;
  const TransferPlan plan = plan_for(call, algorithm, call.bytes, full);
  std::vector<uint64_t> link_bytes(topology_.links().size(), 0);
  std::vector<uint64_t> program_bytes(plan.program_count(), 0);
  for (uint32_t t = 0; t < plan.size(); ++t) {
    const Transfer& tr = plan.transfer(t);
    for (uint32_t id : router.route(tr.from, tr.to)) link_bytes[id] += tr.wire_bytes;
    program_bytes[tr.program] += tr.payload_bytes;
  }
  int64_t busiest = 0;
  for (std::size_t id = 0; id < link_bytes.size(); ++id) {
    busiest = std::max(
        busiest,
        serialization_ps(link_bytes[id], topology_.link(static_cast<uint32_t>(id)).bytes_per_s));
  }
  if (options.program_bytes_per_s > 0) {
    for (uint64_t bytes : program_bytes) {
      busiest = std::max(busiest, serialization_ps(bytes, options.program_bytes_per_s));
    }
  }
  return base_latency_ps(algorithm, protocol) + latency + busiest;
}

CollectiveResult SystemModel::run(const CollectiveCall& call) const {
  const std::vector<uint32_t> ranks = ranks_of(call);
  const auto n = static_cast<uint32_t>(ranks.size());
  const std::vector<std::pair<Algorithm, Protocol>> options = candidates(call);
  std::pair<Algorithm, Protocol> choice = options.front();
  if (options.size() > 1) {
    int64_t best = std::numeric_limits<int64_t>::max();
    for (const auto& [a, p] : options) {
      const int64_t predicted = predict_ps(call, a, p);
      if (predicted < best) {
        best = predicted;
        choice = {a, p};
      }
    }
  }
  const auto [algorithm, protocol] = choice;
  const uint32_t channels = channels_for(call, algorithm, protocol, n);
  const PlanShape shape = shape_for(call, algorithm, protocol, channels);
  Router router(topology_);
  const SimulationResult sim = simulate(plan_for(call, algorithm, call.bytes, shape), router,
                                        options_of(protocol_config(protocol), algorithm));
  CollectiveResult result;
  result.time_ps = base_latency_ps(algorithm, protocol) + sim.makespan_ps;
  result.algorithm = algorithm;
  result.protocol = protocol;
  result.channels = channels;
  const double seconds = static_cast<double>(result.time_ps) * 1e-12;
  result.algbw_gb_per_s = static_cast<double>(call.bytes) / seconds / 1e9;
  result.busbw_gb_per_s = result.algbw_gb_per_s * bus_factor(call.op, n);
  result.link_bytes = sim.link_bytes;
  for (int64_t busy : sim.link_busy_ps) {
    result.link_utilisation.push_back(static_cast<double>(busy) /
                                      static_cast<double>(result.time_ps));
  }
  for (uint32_t r : ranks) {
    const uint32_t sms = algorithm == Algorithm::kP2p
                             ? std::min(sim.gpu_programs[r], config_.comm().max_channels())
                             : channels;
    result.gpus.push_back(GpuSide{r, sms, sim.gpu_read_bytes[r], sim.gpu_write_bytes[r]});
  }
  return result;
}

}  // namespace sassim::system
