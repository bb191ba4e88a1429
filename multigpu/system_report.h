#pragma once
// What a multi-GPU run prints (docs/MULTIGPU.md): each player's ranks with their time in
// kernels and in collectives and the bytes its collectives read and wrote in its memory,
// each collective (algorithm, protocol, channels, start, time, nccl-tests' bus bandwidth,
// the busiest link), and what binds the step: the GPUs or the interconnect. With a
// workload.txt in the rank folders, the per-token figures of the whole system.
#include <cstdio>
#include <optional>

#include "configs/system_config.pb.h"
#include "multigpu/system_run.h"
#include "sim/workload_report.h"
#include "traces/workload_info.h"

namespace sassim::multigpu {

// One player's split of the step [0, its end]: kernels running, in collectives (waiting
// for the last rank, then moving data), and neither (launch gaps).
struct RankTimes {
  Picos kernels = 0;     // the union of its kernels' intervals
  Picos waiting = 0;     // arrived at a collective before the communicator's last rank
  Picos collective = 0;  // in collectives from their start to their end
};
RankTimes rank_times(const SystemResult& result, std::size_t player);

// The step's share of the interconnect: the slowest player's collective time (waiting
// excluded) over the step. Above one half, the interconnect binds.
double interconnect_share(const SystemResult& result);

// The system's figures per token (layer time: the first kernel's start to the last rank's end).
sim::WorkloadFigures system_figures(const traces::WorkloadInfo& info, const SystemResult& result);

void print_system_summary(std::FILE* out, const config::SystemConfig& system,
                          const SystemResult& result,
                          const std::optional<traces::WorkloadInfo>& layer);

}  // namespace sassim::multigpu
