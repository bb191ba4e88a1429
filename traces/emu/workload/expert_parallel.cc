#include "traces/emu/workload/expert_parallel.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "ground/error.h"
#include "traces/emu/workload/attention_half.h"

namespace sassim::emu::workload {
namespace {

traces::CollectiveCommand alltoall(uint32_t ep, std::string type) {
  traces::CollectiveCommand c;
  c.op = "alltoall";
  c.type = std::move(type);
  for (uint32_t r = 0; r < ep; ++r) c.ranks.push_back(r);
  return c;
}

size_t launch_index(const LayerPlan& plan, std::string_view step) {
  for (size_t i = 0; i < plan.launches.size(); ++i)
    if (plan.launches[i].step == step) return i;
  throw Error(fmt::format("internal: the layer has no {}", step));
}

template <typename T>
std::vector<T> read_as(const std::vector<uint8_t>& bytes, size_t count) {
  std::vector<T> v(count);
  std::memcpy(v.data(), bytes.data(), count * sizeof(T));
  return v;
}

// Rank d's dispatch slots from every rank's top-k ids and normalised rows.
void dispatch(std::vector<std::unique_ptr<LayerExecutor>>& ranks,
              const std::vector<LayerPlan>& plans, const std::vector<std::vector<int32_t>>& ids) {
  const LayerOptions& o = plans[0].options;
  const size_t pairs = ids[0].size(), row_bytes = size_t{o.hidden} * 2;
  for (size_t d = 0; d < ranks.size(); ++d) {
    const ExpertRange mine = local_experts(plans[d].options);
    std::vector<uint8_t>& slot_ids = ranks[d]->tensor(plans[d].tensor(kDispatchIds));
    std::vector<uint8_t>& slot_rows = ranks[d]->tensor(plans[d].tensor(kDispatchRows));
    for (size_t s = 0; s < ranks.size(); ++s) {
      const std::vector<uint8_t>& rows = ranks[s]->tensor(plans[s].tensor("ffn_norm.out"));
      for (size_t p = 0; p < pairs; ++p) {
        const size_t slot = s * pairs + p;
        const bool kept = static_cast<uint32_t>(ids[s][p]) - mine.first < mine.count;
        const int32_t id = kept ? ids[s][p] : -1;
        std::memcpy(&slot_ids[slot * 4], &id, 4);
        uint8_t* to = &slot_rows[slot * row_bytes];
        if (kept) {
          std::memcpy(to, &rows[(p / o.top_k) * row_bytes], row_bytes);
        } else {
          std::memset(to, 0, row_bytes);
        }
      }
    }
  }
}

// Each pair's FP32 output row from its expert's rank to its token's rank, in pair order.
void combine(std::vector<std::unique_ptr<LayerExecutor>>& ranks,
             const std::vector<LayerPlan>& plans, size_t pairs) {
  const size_t row_bytes = size_t{plans[0].options.hidden} * 4;
  for (size_t d = 0; d < ranks.size(); ++d) {
    const std::vector<int32_t> pair_rows =
        read_as<int32_t>(ranks[d]->tensor(plans[d].tensor("moe.pair_rows")), ranks.size() * pairs);
    const std::vector<uint8_t>& out = ranks[d]->tensor(plans[d].tensor("experts.down.out"));
    for (size_t s = 0; s < ranks.size(); ++s) {
      std::vector<uint8_t>& combined = ranks[s]->tensor(plans[s].tensor(kCombineRows));
      for (size_t p = 0; p < pairs; ++p) {
        const int32_t row = pair_rows[s * pairs + p];
        if (row < 0) continue;
        std::memcpy(&combined[p * row_bytes], &out[static_cast<size_t>(row) * row_bytes],
                    row_bytes);
      }
    }
  }
}

}  // namespace

ExpertRange local_experts(const LayerOptions& o) {
  if (o.ep <= 1) return {0, o.experts};
  const uint32_t count = o.experts / o.ep;
  return {o.ep_rank * count, count};
}

void check_expert_parallel(const LayerOptions& o) {
  if (o.ep < 2 || o.ep > o.experts) {
    throw Error(fmt::format(
        "--ep {} with --experts {}: expected 2 to {} GPUs (the experts are divided among them; "
        "--ep 1 is one GPU)",
        o.ep, o.experts, std::max(o.experts, 2U)));
  }
  if (o.tp != 1) {
    throw Error(fmt::format(
        "--ep {} with --tp {}: expert parallelism runs data-parallel attention, a whole layer "
        "per rank; combining it with tensor parallelism is not implemented (give one of them)",
        o.ep, o.tp));
  }
  if (o.experts % o.ep != 0) {
    throw Error(fmt::format(
        "--ep {} with --experts {}: each rank holds experts / ep experts, so --experts must be "
        "a multiple of --ep",
        o.ep, o.experts));
  }
  if (o.batch % o.ep != 0) {
    throw Error(
        fmt::format("--ep {} with --batch {}: each rank runs batch / ep sequences (data-parallel "
                    "attention), so --batch must be a multiple of --ep",
                    o.ep, o.batch));
  }
  if (o.ep_rank >= o.ep) {
    throw Error(fmt::format("internal: expert-parallel rank {} of {}", o.ep_rank, o.ep));
  }
}

void add_alltoalls(LayerPlan& plan) {
  const uint32_t ep = plan.options.ep;
  plan.collectives.push_back(
      {std::string(kDispatchStep), launch_index(plan, "topk_softmax"), alltoall(ep, "bf16")});
  plan.collectives.push_back(
      {std::string(kCombineStep), launch_index(plan, "experts_down"), alltoall(ep, "fp32")});
  set_alltoall_bytes(plan, uint64_t{plan.tokens} * plan.options.top_k);
}

void set_alltoall_bytes(LayerPlan& plan, uint64_t largest_rows) {
  const LayerOptions& o = plan.options;
  for (PlannedCollective& c : plan.collectives) {
    const uint64_t value_bytes = c.step == kDispatchStep ? 2 : 4;
    c.command.bytes = uint64_t{o.ep} * largest_rows * o.hidden * value_bytes;
  }
}

std::vector<std::vector<uint64_t>> dispatch_rows(const LayerOptions& o,
                                                 const std::vector<std::vector<int32_t>>& ids) {
  std::vector<std::vector<uint64_t>> rows(ids.size(), std::vector<uint64_t>(o.ep, 0));
  const uint32_t per_rank = o.experts / o.ep;
  for (size_t s = 0; s < ids.size(); ++s) {
    for (const int32_t id : ids[s]) {
      if (id < 0 || static_cast<uint32_t>(id) >= o.experts)
        throw Error(fmt::format("rank {}: expert id {} of {} experts", s, id, o.experts));
      ++rows[s][static_cast<uint32_t>(id) / per_rank];
    }
  }
  return rows;
}

std::vector<LayerPlan> plan_ep_ranks(const LayerOptions& o) {
  std::vector<LayerPlan> plans;
  for (uint32_t r = 0; r < std::max(o.ep, 1U); ++r) {
    LayerOptions rank = o;
    rank.ep_rank = r;
    plans.push_back(plan_moe_layer(rank));
  }
  return plans;
}

std::string ep_rank_folder(uint32_t rank) {
  return fmt::format("rank-{}", rank);
}

EpCapture capture_ep_layer(std::vector<LayerPlan>& plans, const LayerCaptureOptions& options,
                           const std::vector<std::string>& read_back) {
  const size_t ep = plans.size();
  std::vector<LayerCaptureOptions> rank_options(ep, options);
  std::vector<std::unique_ptr<LayerExecutor>> ranks;
  for (size_t r = 0; r < ep; ++r) {
    if (!options.trace_folder.empty())
      rank_options[r].trace_folder =
          options.trace_folder / ep_rank_folder(static_cast<uint32_t>(r));
    ranks.push_back(std::make_unique<LayerExecutor>(plans[r], rank_options[r]));
  }
  EpCapture out;
  out.reports.resize(ep);
  auto run_to = [&](size_t end) {
    for (size_t r = 0; r < ep; ++r) {
      try {
        ranks[r]->run(out.reports[r].size(), end, out.reports[r]);
      } catch (const Error& e) {
        throw Error(fmt::format("rank {}: {}", r, e.what()));
      }
    }
  };
  const LayerPlan& first = plans[0];
  const size_t pairs = size_t{first.tokens} * first.options.top_k;
  run_to(first.collectives.at(0).after + 1);
  std::vector<std::vector<int32_t>> ids;
  for (size_t r = 0; r < ep; ++r)
    ids.push_back(read_as<int32_t>(ranks[r]->tensor(plans[r].tensor("topk.ids")), pairs));
  out.rows = dispatch_rows(first.options, ids);
  for (const auto& row : out.rows)
    out.largest_rows = std::max(out.largest_rows, *std::max_element(row.begin(), row.end()));
  dispatch(ranks, plans, ids);
  run_to(first.collectives.at(1).after + 1);
  combine(ranks, plans, pairs);
  run_to(first.launches.size());
  for (LayerPlan& plan : plans) set_alltoall_bytes(plan, out.largest_rows);
  out.tensors.resize(ep);
  for (size_t r = 0; r < ep; ++r) {
    for (const std::string& name : read_back)
      out.tensors[r][name] = ranks[r]->tensor(plans[r].tensor(name));
  }
  if (options.trace_folder.empty()) return out;
  // Every rank's workload.txt states the whole step: all ranks' sequences and tokens.
  traces::WorkloadInfo info = workload_info(first);
  info.batch = uint64_t{first.options.batch} * ep;
  info.tokens = uint64_t{first.tokens} * ep;
  for (size_t r = 0; r < ep; ++r) traces::write_workload_info(rank_options[r].trace_folder, info);
  return out;
}

}  // namespace sassim::emu::workload
