#pragma once
// The interconnect between the SMs and the L2 slices (L2 clock domain, "gpu.noc"):
// a crossbar with a request queue per SM and a response queue per slice on its
// inputs, delivering into each slice's request queue and each SM's response queue.
//
// Timing: a request is taken from its SM's queue at the first L2 edge it is visible
// (tN) if the SM's port has bandwidth credit and the destination slice's queue has
// room (else the SM's queue waits: head of line; the slice's queue counts the packets
// still on their way to it, and the memory system sizes it for them); it is visible at the slice
// latency_cycles x hops later, plus far_partition_latency_cycles when the slice is in
// an L2 partition the SM is not near (noc_routes.h) (tN + latency * T; a latency of 0
// still takes one cycle). A response is taken from its slice's queue at the first L2 edge it is
// visible if its SM's queue has room; the SM's receive port then serializes it
// behind the packets already headed there (an output queue), and it is visible at
// the SM the same latency later than the cycle its transfer starts. Each SM port moves
// port_bytes_per_cycle in each direction (towards the slices
// request_port_bytes_per_cycle where set): a read request is kPacketHeaderBytes, a
// write, atomic or reduction request and every response carry their sectors too.
// Unloaded, a packet's time through is exactly the latency; back to back, packet i
// of one port starts floor(i * bytes / port_bytes_per_cycle) cycles after the first.
// With slice_port_bytes_per_cycle, each slice's port sends its responses at that
// many bytes per L2 cycle (a byte credit on the L2 clock): a response leaves when the
// port has credit, and the next waits for the credit to come back.
// Arbitration is round robin over the sources, starting after the last one granted
// (from source 0 at the start), so runs are deterministic.
// Agent ports (Ports::agent_*, the hub of memsys/hub_traffic.h) are sources numbered
// after the SMs (MemRequest::sm = SMs + a). An agent is near every L2 partition (one
// hop, never far, so its reads leave no far copies) and its port is as wide as all the
// SM ports together: what sends into it paces itself.
// With interconnect.replicate_far_reads (a ReplicaStore given), a read for a line whose
// home slice is far from its SM is timed near when the near slice at the home slice's
// position in the SM's partition holds a copy of every sector it asks for; otherwise
// its data leaves a copy there on the way back. Writes, atomics and reductions drop
// the line's copies in the partitions other than its home's. The request itself still
// goes to the home slice (its bandwidth, MSHRs and hit latency). A far request that no
// copy serves (a read the copy misses, a write, atomic or reduction) also passes
// through that near slice, taking its bandwidth (ReplicaStore::pass) when it is routed.
// With interconnect.near_slice_serves_far_reads as well, a far read goes to that near
// slice instead (its latency both ways), which serves it or fetches the line from the
// home slice (L2HomeLinks); the home slice's answer to such a fetch
// (MemResponse::to_slice) takes the home slice's port and reaches the near slice's
// fills far_partition_latency_cycles (L2 clock) after it leaves.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "ground/byte_credit.h"
#include "ground/link.h"
#include "ground/unit.h"
#include "memsys/address_map.h"
#include "memsys/mem_packet.h"
#include "memsys/noc_routes.h"

namespace sassim::memsys {

// Copies of far-partition lines, by slice (L2Slice::replica_holds and friends).
class ReplicaStore {
 public:
  virtual ~ReplicaStore() = default;
  virtual bool holds(std::uint32_t slice, std::uint64_t line, std::uint32_t sectors) = 0;
  virtual void install(std::uint32_t slice, std::uint64_t line, std::uint32_t sectors) = 0;
  virtual void drop(std::uint32_t slice, std::uint64_t line) = 0;
  // A far request the copy does not serve passes through `slice` at time `now`.
  virtual void pass(std::uint32_t slice, const MemRequest& request, Picos now) = 0;
};

class Interconnect final : public ClockedUnit {
 public:
  struct Ports {
    std::span<Link<MemRequest>* const> sm_requests;       // inputs, by SM
    std::span<Link<MemResponse>* const> sm_responses;     // outputs, by SM
    std::span<Link<MemRequest>* const> slice_requests;    // outputs, by slice
    std::span<Link<MemResponse>* const> slice_responses;  // inputs, by slice
    // outputs, by slice (interconnect.near_slice_serves_far_reads only)
    std::span<Link<DramResponse>* const> slice_fills = {};
    std::span<Link<MemRequest>* const> agent_requests = {};    // inputs, by agent
    std::span<Link<MemResponse>* const> agent_responses = {};  // outputs, by agent
  };
  // replicas: required when config.replicate_far_reads() and the routes have more than
  // one partition; otherwise unused.
  // clock: the crossbar's (the L2's, or the SMs' with config.core_clock()); far_clock: the
  // L2's, which times the link between the partitions (far_partition_latency_cycles).
  Interconnect(const config::InterconnectConfig& config, Clock clock, Clock far_clock,
               std::uint32_t sector_bytes, const AddressMap& map, const NocRoutes& routes,
               Ports ports, Doorbell& inbox, ReplicaStore* replicas = nullptr);

  bool tick(std::uint64_t cycle, Picos now) override;
  Picos next_event_ps() const override { return std::min(inbox_.earliest_ps(), next_ps_); }
  bool busy() const override;
  const std::string& name() const override { return name_; }
  std::string describe_state() const override;
  void report(StatSink& sink) const override;

  std::uint64_t request_packets() const { return request_packets_; }
  std::uint64_t response_packets() const { return response_packets_; }
  std::uint64_t replica_hits() const { return replica_hits_; }

 private:
  std::uint32_t request_bytes(const MemRequest& r) const;
  std::uint32_t response_bytes(const MemResponse& r) const;
  Picos latency(std::uint32_t sm, std::uint32_t slice) const {
    return latency_ps_[std::size_t{sm} * slices_ + slice];
  }
  // Whether the slice is in a partition the source is not near (agents: never).
  bool far(std::uint32_t source, std::uint32_t slice) const {
    return source < sms_ && routes_.far(source, slice);
  }
  // The slice a request goes to: its line's home, or with near_slice_serves_far_reads
  // the near copy's slice for a far read.
  std::uint32_t target_slice(const MemRequest& r) const;
  // The slice of partition p at home slice `slice`'s position within its partition.
  std::uint32_t copy_slice(std::uint32_t slice, std::uint32_t partition) const;
  // Replication on routing a request to its home slice at `now` (recording its route in
  // r.far); returns its latency.
  Picos route_request(MemRequest& r, std::uint32_t slice, Picos now);
  // Replication on a response from slice j (by the route in r.far); returns its latency.
  Picos route_response(const MemResponse& r, std::uint32_t j);
  bool move_responses(std::uint64_t cycle, Picos now);
  // Push slice j's response r on to its near slice's fills (MemResponse::to_slice) or its
  // SM; false when that queue is full.
  bool hand_to_slice(const MemResponse& r, Picos now);
  bool hand_to_sm(const MemResponse& r, std::uint32_t j, std::uint64_t cycle, Picos now);
  // Whether slice j's port can send at now (refilling its credit).
  bool slice_port_open(std::uint32_t j, Picos now);
  bool move_requests(std::uint64_t cycle, Picos now);
  Picos compute_next(Picos now) const;

  std::string name_;
  Clock clock_;
  std::uint32_t sector_bytes_;
  std::uint32_t sms_;
  std::uint32_t sources_;  // SMs, then agents
  std::uint32_t slices_;
  const AddressMap& map_;
  Ports ports_;
  std::vector<Link<MemRequest>*> requests_;    // by source: the SMs', then the agents'
  std::vector<Link<MemResponse>*> responses_;  // by source
  Doorbell& inbox_;
  std::vector<Picos> latency_ps_;    // sms x slices, from the routes
  std::vector<ByteCredit> sm_send_;  // source port, towards the slices
  Clock l2_clock_;
  std::vector<ByteCredit> slice_send_;  // slice ports, in L2 cycles (empty: no limit)
  // Source port, from the slices: its width, and when (in byte-times: cycle x width)
  // the port is free for the next packet.
  std::vector<std::uint64_t> receive_bytes_per_cycle_;
  std::vector<std::uint64_t> sm_receive_next_;
  std::uint32_t request_start_ = 0;   // round-robin start over SMs
  std::uint32_t response_start_ = 0;  // round-robin start over slices
  Picos next_ps_ = kNever;

  // Replication (null: off). A far read's route travels in the packets (FarRead).
  ReplicaStore* replicas_ = nullptr;
  bool near_serves_ = false;  // near_slice_serves_far_reads (with replicas_)
  Picos far_ps_ = 0;          // the link between the partitions, one way
  const NocRoutes& routes_;
  std::uint64_t replica_hits_ = 0;

  std::uint64_t request_packets_ = 0;
  std::uint64_t response_packets_ = 0;
};

}  // namespace sassim::memsys
