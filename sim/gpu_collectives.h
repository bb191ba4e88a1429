#pragma once
// The collectives of one GPU run (Gpu::run, sim/collective_port.h): each is a vertex of
// the launch graph in its stream; it starts when the launches before it are done and
// ends when the port says so. Not for use outside the GPU.
//
// The GPU side of a collective (CollectivePort::Charge) is charged to the GPU: its SMs
// are taken from the CTA scheduler from this GPU's arrival (NCCL's kernel is launched
// when its stream reaches it, and its CTAs wait there for the other ranks) to its end;
// its memory reads and writes go to the hub (memsys/hub_traffic.h), spread over
// [start, end] when the start is known at the arrival, else over [the sync that tells
// the end, end].
#include <cstddef>
#include <map>
#include <vector>

#include "ground/unit.h"
#include "memsys/hub_traffic.h"
#include "sim/collective_port.h"
#include "sim/cta_scheduler.h"
#include "sim/launch_graph.h"
#include "traces/collective_line.h"

namespace sassim::sim {

class GpuCollectives {
 public:
  // port: null for a single-GPU run, where a collective is an error. A collective's end
  // takes effect at the first edge of `core` at or after it (the launches after it start
  // on an SM clock edge).
  // scheduler, hub: where a collective's SMs and memory traffic are charged (null: not).
  GpuCollectives(CollectivePort* port, Clock core, CtaScheduler* scheduler = nullptr,
                 memsys::HubTraffic* hub = nullptr)
      : port_(port), core_(core), scheduler_(scheduler), hub_(hub) {}

  // A collective read from the trace, the vertex `order` of the launch graph.
  void add(std::size_t order, const traces::CollectiveCommand& command);
  // Tells the port of every read collective whose launches before it are done.
  void start_ready(const LaunchGraph& graph, Picos now);
  // Marks done in `graph` every collective that ended by `now`; returns how many.
  std::size_t finish_ended(LaunchGraph& graph, Picos now);
  // Read and not yet ended.
  bool outstanding() const { return !waiting_.empty() || !started_.empty(); }
  // The time the GPU must stop at next: the next sync or the earliest end it knows,
  // kNever without a port.
  Picos next_stop();
  // The next sync time (kNever without a port).
  Picos next_sync();
  // At a sync time (now == port's next sync after the last one): syncs with the others.
  void sync_if_due(Picos now, bool idle);

 private:
  struct Started {
    std::size_t vertex = 0;
    CollectivePort::Charge charge;
    std::vector<std::uint32_t> sms;  // taken from the CTA scheduler
    bool traffic = false;            // its memory traffic was handed to the hub
  };
  // Hands the collective's memory traffic to the hub, spread over [begin, end].
  void send_traffic(Started& s, Picos begin, Picos end);

  CollectivePort* port_;
  Clock core_;
  CtaScheduler* scheduler_;
  memsys::HubTraffic* hub_;
  std::size_t read_ = 0;                        // collectives read so far
  std::map<std::size_t, std::size_t> waiting_;  // index -> graph vertex, not started
  std::map<std::size_t, Started> started_;      // index -> its state, not ended
  std::map<std::size_t, Picos> ends_;           // index -> end, as the port told
  Picos next_sync_ = 0;                         // 0: not asked yet
};

}  // namespace sassim::sim
