#pragma once
// The per-link and per-GPU detail of one simulated collective as JSON arrays (`sassim
// collective --format json`, `sassim run --system --format json`).
#include <string>

#include "system/collective.h"
#include "system/topology.h"

namespace sassim::cli {

// [{"from", "to", "bytes", "utilisation"}, ...] for every link the collective used.
std::string links_json(const system::Topology& topology, const system::CollectiveResult& r);
// [{"rank", "sms", "memory_read_bytes", "memory_write_bytes", "memory_gb_per_s"}, ...]: what
// the collective takes of each GPU (memory_gb_per_s over the collective's time).
std::string gpu_sides_json(const system::CollectiveResult& r);

}  // namespace sassim::cli
