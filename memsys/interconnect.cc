#include "memsys/interconnect.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

namespace sassim::memsys {

Interconnect::Interconnect(const config::InterconnectConfig& config, Clock clock, Clock far_clock,
                           std::uint32_t sector_bytes, const AddressMap& map,
                           const NocRoutes& routes, Ports ports, Doorbell& inbox,
                           ReplicaStore* replicas)
    : name_("gpu.noc"),
      clock_(clock),
      sector_bytes_(sector_bytes),
      sms_(static_cast<std::uint32_t>(ports.sm_requests.size())),
      sources_(sms_ + static_cast<std::uint32_t>(ports.agent_requests.size())),
      slices_(static_cast<std::uint32_t>(ports.slice_requests.size())),
      map_(map),
      ports_(ports),
      inbox_(inbox),
      l2_clock_(far_clock),
      slice_send_(config.slice_port_bytes_per_cycle() == 0 ? 0 : slices_,
                  ByteCredit(config.slice_port_bytes_per_cycle())),
      sm_receive_next_(sources_, 0),
      replicas_(config.replicate_far_reads() && routes.partitions() > 1 ? replicas : nullptr),
      routes_(routes) {
  inbox_.owner = this;
  requests_.assign(ports.sm_requests.begin(), ports.sm_requests.end());
  requests_.insert(requests_.end(), ports.agent_requests.begin(), ports.agent_requests.end());
  responses_.assign(ports.sm_responses.begin(), ports.sm_responses.end());
  responses_.insert(responses_.end(), ports.agent_responses.begin(), ports.agent_responses.end());
  const std::uint64_t send = config.request_port_bytes_per_cycle() != 0
                                 ? config.request_port_bytes_per_cycle()
                                 : config.port_bytes_per_cycle();
  for (std::uint32_t s = 0; s < sources_; ++s) {
    const std::uint64_t ports_wide = s < sms_ ? 1 : std::max(sms_, 1u);
    sm_send_.emplace_back(static_cast<std::int64_t>(send * ports_wide));
    receive_bytes_per_cycle_.push_back(config.port_bytes_per_cycle() * ports_wide);
  }
  near_serves_ = replicas_ != nullptr && config.near_slice_serves_far_reads();
  far_ps_ = config.far_partition_latency_cycles() * far_clock.period_ps;
  latency_ps_.reserve(std::size_t{sources_} * slices_);
  for (std::uint32_t sm = 0; sm < sources_; ++sm) {
    for (std::uint32_t j = 0; j < slices_; ++j) {
      const bool agent = sm >= sms_;
      const Picos far = !agent && routes.far(sm, j)
                            ? config.far_partition_latency_cycles() * far_clock.period_ps
                            : 0;
      const Picos crossbar =
          std::uint64_t{agent ? 1 : routes.hops(sm, j)} * config.latency_cycles() * clock.period_ps;
      latency_ps_.push_back(std::max(crossbar + far, clock.period_ps));
    }
  }
}

std::uint32_t Interconnect::request_bytes(const MemRequest& r) const {
  if (!request_carries_data(r.kind)) return kPacketHeaderBytes;
  return kPacketHeaderBytes +
         sector_bytes_ * static_cast<std::uint32_t>(std::popcount(r.sector_mask));
}

std::uint32_t Interconnect::response_bytes(const MemResponse& r) const {
  if (!expects_response(r.kind)) return kPacketHeaderBytes;  // an acknowledgement
  return kPacketHeaderBytes +
         sector_bytes_ * static_cast<std::uint32_t>(std::popcount(r.sector_mask));
}

bool Interconnect::busy() const {
  for (const auto* link : requests_) {
    if (!link->empty()) return true;
  }
  for (const auto* link : ports_.slice_responses) {
    if (!link->empty()) return true;
  }
  return false;
}

bool Interconnect::tick(std::uint64_t cycle, Picos now) {
  // Back to front: responses first, so they never wait behind new requests.
  bool progress = move_responses(cycle, now);
  progress |= move_requests(cycle, now);
  next_ps_ = compute_next(now);
  inbox_.reset();
  return progress;
}

bool Interconnect::move_responses(std::uint64_t cycle, Picos now) {
  bool progress = false;
  std::uint32_t last_granted = 0;
  for (std::uint32_t k = 0; k < slices_; ++k) {
    const std::uint32_t j = (response_start_ + k) % slices_;
    Link<MemResponse>& source = *ports_.slice_responses[j];
    while (source.ready(now) && slice_port_open(j, now)) {
      const MemResponse& r = source.front();
      if (!(r.to_slice ? hand_to_slice(r, now) : hand_to_sm(r, j, cycle, now))) break;
      if (!slice_send_.empty()) slice_send_[j].consume(response_bytes(r));
      source.pop();
      ++response_packets_;
      last_granted = j;
      progress = true;
    }
  }
  if (progress) response_start_ = (last_granted + 1) % slices_;
  return progress;
}

bool Interconnect::hand_to_slice(const MemResponse& r, Picos now) {
  // A home slice's answer to a near slice's fetch, over the partitions' link.
  Link<DramResponse>& fills = *ports_.slice_fills[r.sm];
  if (fills.full()) return false;
  fills.push(DramResponse{r.line, r.sector_mask, r.tag}, now, now + far_ps_);
  return true;
}

bool Interconnect::hand_to_sm(const MemResponse& r, std::uint32_t j, std::uint64_t cycle,
                              Picos now) {
  Link<MemResponse>& destination = *responses_[r.sm];
  if (destination.full()) return false;
  // The SM's receive port serializes its packets: one starts when the previous
  // one has used its bytes (an output queue, so one busy SM never blocks a slice
  // whose later responses go elsewhere, unless that SM's queue is full).
  const std::uint64_t width = receive_bytes_per_cycle_[r.sm];
  std::uint64_t& next_free = sm_receive_next_[r.sm];
  const std::uint64_t start = std::max(cycle * width, next_free);
  next_free = start + response_bytes(r);
  const Picos arrive = clock_.edge(start / width) + route_response(r, j);
  destination.push(r, now, arrive);
  return true;
}

bool Interconnect::slice_port_open(std::uint32_t j, Picos now) {
  if (slice_send_.empty()) return true;
  slice_send_[j].refill(now / l2_clock_.period_ps);
  return slice_send_[j].available();
}

bool Interconnect::move_requests(std::uint64_t cycle, Picos now) {
  bool progress = false;
  std::uint32_t last_granted = 0;
  for (std::uint32_t k = 0; k < sources_; ++k) {
    const std::uint32_t sm = (request_start_ + k) % sources_;
    Link<MemRequest>& source = *requests_[sm];
    ByteCredit& port = sm_send_[sm];
    port.refill(cycle);
    while (source.ready(now) && port.available()) {
      const std::uint32_t slice = target_slice(source.front());
      Link<MemRequest>& destination = *ports_.slice_requests[slice];
      if (destination.full()) break;
      MemRequest r = source.pop();
      port.consume(request_bytes(r));
      const Picos arrive = now + route_request(r, slice, now);
      destination.push(r, now, arrive);
      ++request_packets_;
      last_granted = sm;
      progress = true;
    }
  }
  if (progress) request_start_ = (last_granted + 1) % sources_;
  return progress;
}

std::uint32_t Interconnect::target_slice(const MemRequest& r) const {
  const std::uint32_t home = map_.slice_of(r.line);
  if (!near_serves_ || r.kind != ReqKind::kRead || !far(r.sm, home)) return home;
  return copy_slice(home, routes_.partition_of_sm(r.sm));
}

std::uint32_t Interconnect::copy_slice(std::uint32_t slice, std::uint32_t partition) const {
  const std::uint32_t per = slices_ / routes_.partitions();
  return slice - routes_.partition_of_slice(slice) * per + partition * per;
}

Picos Interconnect::route_request(MemRequest& r, std::uint32_t slice, Picos now) {
  if (replicas_ == nullptr || slice != map_.slice_of(r.line)) return latency(r.sm, slice);
  const std::uint32_t home = routes_.partition_of_slice(slice);
  const bool is_far = far(r.sm, slice);
  if (r.kind != ReqKind::kRead) {
    for (std::uint32_t p = 0; p < routes_.partitions(); ++p) {
      if (p != home) replicas_->drop(copy_slice(slice, p), r.line);
    }
    if (is_far) replicas_->pass(copy_slice(slice, routes_.partition_of_sm(r.sm)), r, now);
    return latency(r.sm, slice);
  }
  if (!is_far) return latency(r.sm, slice);
  const std::uint32_t copy = copy_slice(slice, routes_.partition_of_sm(r.sm));
  const bool near = replicas_->holds(copy, r.line, r.sector_mask);
  r.far = FarRead{static_cast<std::uint16_t>(copy),
                  near ? FarRead::State::kNear : FarRead::State::kMiss};
  if (!near) {
    replicas_->pass(copy, r, now);
    return latency(r.sm, slice);
  }
  ++replica_hits_;
  return latency(r.sm, copy);
}

Picos Interconnect::route_response(const MemResponse& r, std::uint32_t j) {
  switch (r.far.state) {
    case FarRead::State::kNone:
      break;
    case FarRead::State::kNear:
      return latency(r.sm, r.far.copy);
    case FarRead::State::kMiss:
      replicas_->install(r.far.copy, r.line, r.sector_mask);
      break;
  }
  return latency(r.sm, j);
}

// Earliest time some input can move: its ready time, or for a head that is ready but
// blocked, when its SM port has credit again or (destination full) the next cycle.
Picos Interconnect::compute_next(Picos now) const {
  Picos next = kNever;
  const Picos retry = now + clock_.period_ps;
  for (std::uint32_t sm = 0; sm < sources_; ++sm) {
    const Link<MemRequest>& source = *requests_[sm];
    if (source.empty()) continue;
    Picos t = source.front_ready_ps();
    if (t <= now) {
      t = sm_send_[sm].available() ? retry
                                   : std::max(retry, clock_.edge(sm_send_[sm].next_available()));
    }
    next = std::min(next, t);
  }
  for (std::uint32_t j = 0; j < slices_; ++j) {
    const Link<MemResponse>& source = *ports_.slice_responses[j];
    if (source.empty()) continue;
    Picos t = source.front_ready_ps();
    if (t <= now) {
      // Its port is out of credit, or its SM's queue is full.
      t = slice_send_.empty() || slice_send_[j].available()
              ? retry
              : std::max(retry, l2_clock_.edge(slice_send_[j].next_available()));
    }
    next = std::min(next, t);
  }
  return next;
}

std::string Interconnect::describe_state() const {
  std::size_t requests = 0;
  std::size_t responses = 0;
  Picos oldest = kNever;
  std::string oldest_what = "none";
  for (std::uint32_t sm = 0; sm < sources_; ++sm) {
    const Link<MemRequest>& q = *requests_[sm];
    requests += q.size();
    if (!q.empty() && q.front_ready_ps() < oldest) {
      oldest = q.front_ready_ps();
      oldest_what = fmt::format("request from SM {} for line {:#x} ready at {} ps", sm,
                                q.front().line, oldest);
    }
  }
  for (std::uint32_t j = 0; j < slices_; ++j) {
    const Link<MemResponse>& q = *ports_.slice_responses[j];
    responses += q.size();
    if (!q.empty() && q.front_ready_ps() < oldest) {
      oldest = q.front_ready_ps();
      oldest_what =
          fmt::format("response from slice {} to SM {} ready at {} ps", j, q.front().sm, oldest);
    }
  }
  return fmt::format(
      "{} requests queued at {} SM ports, {} responses queued at {} slice ports; oldest: {}",
      requests, sms_, responses, slices_, oldest_what);
}

void Interconnect::report(StatSink& sink) const {
  sink.add_counter(name_, "request_packets", static_cast<double>(request_packets_));
  sink.add_counter(name_, "response_packets", static_cast<double>(response_packets_));
  if (replicas_ != nullptr)
    sink.add_counter(name_, "replica_hits", static_cast<double>(replica_hits_));
}

}  // namespace sassim::memsys
