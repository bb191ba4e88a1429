#pragma once
// Event-driven, chunk-level simulation of a TransferPlan over a Topology, in integer
// picoseconds. Deterministic: events are ordered by (time, sequence of creation).
//
// A transfer is issued when its program's previous transfer has been issued and every
// transfer it depends on has arrived. It then crosses its route's links cut-through: on
// each link it waits until the link is free (each direction of a link serves transfers
// one at a time, first come first served, at its full bandwidth), occupies it for
// wire_bytes / bandwidth, and its head reaches the next link one latency later; its tail
// cannot leave a link before it arrived there. It arrives one latency after its tail left
// the last link, and no earlier than the protocol's step latency for the kind of route
// (network if any link of it is, else PCIe if any is, else NVLink) after the sum of its
// links' latencies: the step latency (NCCL's per-hop latency: flags, fences, the links)
// includes the links' own latency, so a step costs max(route latency, step latency)
// beyond its serialisation. With a per-program rate limit, a program also pushes its
// transfers one at a time at that rate (the CTA's copy speed).
#include <cstdint>
#include <vector>

#include "system/router.h"
#include "system/transfer_plan.h"

namespace sassim::system {

struct SimulationOptions {
  int64_t nvlink_step_ps = 0;
  int64_t pcie_step_ps = 0;
  int64_t net_step_ps = 0;
  uint64_t program_bytes_per_s = 0;  // payload rate of one program; 0: no limit
};

struct SimulationResult {
  int64_t makespan_ps = 0;                // the last arrival (0 for an empty plan)
  std::vector<uint64_t> link_bytes;       // wire bytes that crossed each link
  std::vector<int64_t> link_busy_ps;      // time each link spent sending
  std::vector<uint64_t> gpu_read_bytes;   // per GPU rank: payload read from its memory
  std::vector<uint64_t> gpu_write_bytes;  // per GPU rank: payload written to its memory
  std::vector<uint32_t> gpu_programs;     // per GPU rank: programs (CTAs) it ran
  std::vector<int64_t> arrival_ps;        // per transfer
};

// Picoseconds to send `bytes` at `bytes_per_s`, rounded up.
int64_t serialization_ps(uint64_t bytes, uint64_t bytes_per_s);

SimulationResult simulate(const TransferPlan& plan, Router& router,
                          const SimulationOptions& options);

}  // namespace sassim::system
