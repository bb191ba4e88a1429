#pragma once
// `sassim run DIR --system PRESET --format json`: the multi-GPU report
// (multigpu/system_report.h) as one JSON object.
#include <optional>
#include <string>

#include "configs/system_config.pb.h"
#include "multigpu/system_run.h"
#include "system/topology.h"
#include "traces/workload_info.h"

namespace sassim::cli {

// {"system", "gpu_preset", "ranks", "step_us", "interconnect_share", "bound",
//  "players": [{"ranks", "trace", "kernels", "kernels_us", "collectives_us", "waiting_us",
//  "end_us"}], "collectives": [{"op", "type", "bytes", "ranks", "algorithm", "protocol",
//  "channels", "start_us", "time_us", "busbw_gb_per_s", "max_link_use", "links", "gpus"}],
//  "workload": {...}}; links and gpus as `sassim collective --format json` gives them.
std::string system_json(const config::SystemConfig& system, const system::Topology& topology,
                        const multigpu::SystemResult& result,
                        const std::optional<traces::WorkloadInfo>& layer);

}  // namespace sassim::cli
