#pragma once
// The collectives of one GPU run (Gpu::run, sim/collective_port.h): each is a vertex of
// the launch graph in its stream; it starts when the launches before it are done and
// ends when the port says so. Not for use outside the GPU.
#include <cstddef>
#include <map>
#include <vector>

#include "ground/unit.h"
#include "sim/collective_port.h"
#include "sim/launch_graph.h"
#include "traces/collective_line.h"

namespace sassim::sim {

class GpuCollectives {
 public:
  // port: null for a single-GPU run, where a collective is an error. A collective's end
  // takes effect at the first edge of `core` at or after it (the launches after it start
  // on an SM clock edge).
  GpuCollectives(CollectivePort* port, Clock core) : port_(port), core_(core) {}

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
  CollectivePort* port_;
  Clock core_;
  std::size_t read_ = 0;                        // collectives read so far
  std::map<std::size_t, std::size_t> waiting_;  // index -> graph vertex, not started
  std::map<std::size_t, std::size_t> started_;  // index -> graph vertex, not ended
  std::map<std::size_t, Picos> ends_;           // index -> end, as the port told
  Picos next_sync_ = 0;                         // 0: not asked yet
};

}  // namespace sassim::sim
