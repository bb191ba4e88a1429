// Expert parallelism of a moe-layer over LayerOptions::ep GPUs, as serving stacks run
// mixture-of-experts models (vLLM's data-parallel attention with expert-parallel MoE,
// DeepSeek-V3's deployment, DeepEP's dispatch and combine): rank r runs the attention half
// of its batch / ep sequences (its input rows are rows r x tokens onward of the one-GPU
// layer's input), routes its own tokens, and holds experts [r E / ep, (r + 1) E / ep). An
// all-to-all dispatch after the top-k brings every rank the rows of the (token, slot)
// pairs routed to its experts; it aligns, permutes and multiplies only those, and an
// all-to-all combine after the down projection returns each pair's output row to its
// token's rank, whose un-permutation weights them and adds the residual. A rank's KV
// cache and context lengths are generated for its own batch, so its attention half is not
// the one-GPU layer's; from the same residual `h` on, its rows of `out` are the one-GPU
// layer's bit for bit (tests/emu/expert_parallel_test.cc).
//
// The dispatch's slots: rank d receives ep x pairs slots (pairs: a rank's tokens x top-k),
// slot s x pairs + p holding source s's pair p when its expert is one of d's (its expert
// id and BF16 row), else expert -1 and a zero row; moe_align keeps d's experts. The combine
// puts each pair's FP32 output row at its pair index on its token's rank (ep.combined),
// which the un-permutation reads in pair order (ep.pair_order). Moving rows to and from the
// slots is the collectives' work (DeepEP's kernels do it), not a kernel of the trace.
//
// bytes= of an alltoall line is nccl-tests' size: a rank's whole send buffer, an equal part
// (bytes / ep) for every rank, itself included. A routing gives unequal parts, so the line
// carries ep x the largest part any rank sends to any rank (its rows x hidden x 2 bytes,
// BF16, for the dispatch; x 4 bytes, FP32 as the grouped GEMM writes it, for the combine):
// the buffer an all-to-all of equal parts needs (NCCL's ncclAllToAll, DeepEP's low-latency
// buffers sized per rank), and the largest part sets the time of the busiest pair of GPUs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "traces/emu/workload/layer_capture.h"
#include "traces/emu/workload/layer_plan.h"

namespace sassim::emu::workload {

inline constexpr std::string_view kDispatchIds = "ep.dispatch_ids";
inline constexpr std::string_view kDispatchRows = "ep.dispatch_rows";
inline constexpr std::string_view kCombineRows = "ep.combined";
inline constexpr std::string_view kDispatchStep = "dispatch.alltoall";
inline constexpr std::string_view kCombineStep = "combine.alltoall";

// The experts a rank holds: [first, first + count).
struct ExpertRange {
  uint32_t first = 0;
  uint32_t count = 0;
};
// o.ep_rank's experts (every expert when o.ep is 1).
ExpertRange local_experts(const LayerOptions& o);

// Throws sassim::Error naming --ep and what is expected: o.ep from 2 to o.experts, a
// divisor of o.experts and of o.batch, and o.tp 1.
void check_expert_parallel(const LayerOptions& o);

// Adds the dispatch (after topk_softmax) and the combine (after experts_down) all-to-alls
// over ranks 0 .. ep - 1 to an expert-parallel rank's plan, sized for the worst routing
// (every pair of a rank to one rank) until set_alltoall_bytes sizes them.
void add_alltoalls(LayerPlan& plan);

// Sets both all-to-alls' bytes for `largest_rows`, the most rows one rank sends another.
void set_alltoall_bytes(LayerPlan& plan, uint64_t largest_rows);

// rows[s][d]: the pairs among rank s's top-k expert ids (ids[s], [pairs]) that go to
// rank d's experts.
std::vector<std::vector<uint64_t>> dispatch_rows(const LayerOptions& o,
                                                 const std::vector<std::vector<int32_t>>& ids);

// The plans of ranks 0 .. o.ep - 1 (sassim::Error as check_expert_parallel); a rank's
// plan options hold its own batch, o.batch / o.ep sequences.
std::vector<LayerPlan> plan_ep_ranks(const LayerOptions& o);

// "rank-3": rank r's trace folder under the workload's folder.
std::string ep_rank_folder(uint32_t rank);

struct EpCapture {
  std::vector<std::vector<LaunchReport>> reports;  // per rank
  std::vector<std::vector<uint64_t>> rows;         // dispatch_rows of the routing
  uint64_t largest_rows = 0;
  // Per rank: the bytes of the tensors named in read_back at the end of the step.
  std::vector<std::map<std::string, std::vector<uint8_t>>> tensors;
};

// Executes every rank's plan, the host moving the collectives' data between the ranks'
// memories: each rank to its dispatch, the dispatch, each rank to its combine, the
// combine, each rank to its end. With options.trace_folder, rank r's trace and a
// workload.txt of the whole step (every rank's tokens) go to FOLDER/rank-r. Sets the
// plans' all-to-all bytes from the routing. read_back names tensors of the plans whose
// final bytes each rank returns (EpCapture::tensors). Throws as LayerExecutor, naming the
// rank (and sassim::Error for a name no plan has).
EpCapture capture_ep_layer(std::vector<LayerPlan>& plans, const LayerCaptureOptions& options,
                           const std::vector<std::string>& read_back = {});

}  // namespace sassim::emu::workload
