// Tensor parallelism of a decoder layer over LayerOptions::tp GPUs, as Megatron-LM
// splits it and vLLM runs it: each rank holds heads / tp query heads, kv_heads / tp KV
// heads and ffn / tp of the FFN (of every expert in a moe-layer); the column-parallel
// QKV and gate/up projections need no communication, and each row-parallel projection
// (the attention's output, the FFN's down) ends in an all-reduce of the layer's hidden
// state: tokens x hidden BF16 over all tp ranks. Every rank runs the same kernels, so one
// rank's trace stands for all of them (multigpu/ranks_file.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "traces/collective_line.h"
#include "traces/emu/workload/layer_plan.h"

namespace sassim::emu::workload {

inline constexpr uint32_t kMaxTensorParallel = 64;

// One rank's plan of a layer over o.tp > 1 GPUs: `plan_layer` (plan_dense_layer or
// plan_moe_layer) of the shard, heads, kv_heads and ffn divided by o.tp, with an
// all-reduce (plan.tokens x hidden BF16) after the launch of each step named in `after`
// (in plan order); the plan's options keep o.tp. Throws sassim::Error naming --tp when a
// divided value is not a multiple of it, or o.tp is 0 or above kMaxTensorParallel.
LayerPlan plan_tp_rank(const LayerOptions& o, LayerPlan (*plan_layer)(const LayerOptions&),
                       const std::vector<std::string>& after);

// Writes the plan's collectives into FOLDER/kernelslist.g, each after the kernel file of
// its launch (kernel-N is launch N - 1, as capture_layer writes them). Throws
// sassim::Error naming the file when a launch's kernel is not in it.
void write_collectives(const std::filesystem::path& folder, const LayerPlan& plan);

}  // namespace sassim::emu::workload
