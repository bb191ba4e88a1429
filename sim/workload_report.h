#pragma once
// What a replayed `sassim workload` folder says per token (traces/workload_info.h): the
// layer's time from its first kernel's start to its last kernel's end, tokens per second
// and DRAM bytes (and energy, when modelled) per token, and the same for a model of
// model_layers such layers (the layers alone: no embedding, LM head or sampling).
#include <cstdio>
#include <vector>

#include "sim/kernel_result.h"
#include "traces/workload_info.h"

namespace sassim::sim {

struct WorkloadFigures {
  double layer_seconds = 0;         // first start to last end, at the core clock
  double layer_tokens_per_s = 0;    // tokens / layer_seconds
  double dram_bytes_per_token = 0;  // the layer's DRAM bytes / tokens
  double energy_j_per_token = 0;    // the layer's energy / tokens; NaN when not modelled
  double model_seconds = 0;         // model_layers x layer_seconds
  double model_tokens_per_s = 0;    // tokens / model_seconds
};

WorkloadFigures workload_figures(const traces::WorkloadInfo& info,
                                 const std::vector<KernelResult>& results);

// Three lines: the workload, per token, and the model of model_layers layers.
void print_workload_summary(std::FILE* out, const traces::WorkloadInfo& info,
                            const WorkloadFigures& f);

}  // namespace sassim::sim
