// `sassim workload moe-layer --ep N`: every rank's trace folder, its all-to-alls and the
// ranks.g naming them (traces/emu/workload/expert_parallel.h, docs/MULTIGPU.md).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "traces/emu/workload/layer_capture.h"
#include "traces/emu/workload/layer_plan.h"

namespace sassim::cli {

// What each rank holds and the all-to-alls between them (before any capture).
void print_expert_parallel(const std::vector<emu::workload::LayerPlan>& plans);

// Captures every rank (options.trace_folder: the workload's folder, or empty), prints each
// rank's launches and the routing's rows between ranks, and with a folder writes the ranks'
// listings, their collective lines and ranks.g. `title` names the layer ("moe-layer decode");
// `captured` is called when the capture ends or fails, before anything is printed.
void capture_expert_parallel(std::vector<emu::workload::LayerPlan>& plans,
                             const emu::workload::LayerCaptureOptions& options,
                             const std::string& title, const std::function<void()>& captured);

}  // namespace sassim::cli
