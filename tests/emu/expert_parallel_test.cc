// `sassim workload moe-layer --ep N` (traces/emu/workload/expert_parallel.h): each rank
// runs the attention of batch / N sequences and the grouped GEMMs of its experts / N
// experts, moe_align keeps the pairs of its expert range, and all-to-alls dispatch the
// rows after the top-k and combine the outputs after the down projection, sized from the
// routing; the capture moves the rows between the ranks and the folder replays.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "configs/config_loader.h"
#include "ground/error.h"
#include "multigpu/ranks_file.h"
#include "multigpu/system_run.h"
#include "system/system_config_loader.h"
#include "tests/support/scratch_dir.h"
#include "traces/emu/workload/expert_parallel.h"
#include "traces/emu/workload/tensor_parallel.h"
#include "traces/kernelslist.h"

namespace sassim::emu::workload {
namespace {

namespace fs = std::filesystem;

// Two ranks of 2 sequences each (decode), hidden 256, 4 experts of ffn 256, top-2: each
// rank holds 2 experts.
LayerOptions two_ranks() {
  return {.batch = 4,
          .context = 600,
          .hidden = 256,
          .heads = 4,
          .kv_heads = 1,
          .ffn = 256,
          .sm_version = 90,
          .gemm = GemmChoice::kSkinny,
          .experts = 4,
          .top_k = 2,
          .ep = 2};
}

std::string message_of(const LayerOptions& o, bool dense = false) {
  try {
    dense ? plan_dense_layer(o) : plan_moe_layer(o);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

const PlannedLaunch& step(const LayerPlan& plan, std::string_view name) {
  for (const PlannedLaunch& l : plan.launches)
    if (l.step == name) return l;
  throw Error(std::string("no step ") + std::string(name));
}

TEST(ExpertParallel, EachRankRunsItsSequencesAndItsExperts) {
  const std::vector<LayerPlan> plans = plan_ep_ranks(two_ranks());
  ASSERT_EQ(plans.size(), 2U);
  LayerOptions one_gpu = two_ranks();
  one_gpu.ep = 1;
  const LayerPlan one = plan_moe_layer(one_gpu);
  // A rank's GEMMs (attention, router) have its 2 rows, as one GPU's for a batch of 2: a
  // narrower skinny GEMM than the whole batch's 4 rows take.
  LayerOptions rank_batch = one_gpu;
  rank_batch.batch = 2;
  const LayerPlan same_rows = plan_moe_layer(rank_batch);
  EXPECT_EQ(step(one, "router").kernel, "skinny_gemm_m4");
  using V = std::vector<std::string>;
  for (uint32_t r = 0; r < 2; ++r) {
    const LayerPlan& p = plans[r];
    SCOPED_TRACE(r);
    EXPECT_EQ(p.tokens, 2U);  // 2 of the 4 sequences
    EXPECT_EQ(p.options.batch, 2U);
    ASSERT_EQ(p.launches.size(), one.launches.size());
    ASSERT_EQ(p.launches.size(), same_rows.launches.size());
    for (size_t i = 0; i < p.launches.size(); ++i) {
      EXPECT_EQ(p.launches[i].step, one.launches[i].step);
      EXPECT_EQ(p.launches[i].kernel, same_rows.launches[i].kernel);
    }
    EXPECT_EQ(step(p, "router").kernel, "skinny_gemm_m2");
    EXPECT_EQ(step(p, "topk_softmax").values, (V{"2", "4", "2", "16"}));
    // 2 ranks x 4 pairs = 8 dispatch slots, each one pair; experts 2r, 2r + 1 kept.
    EXPECT_EQ(step(p, "align").values, (V{"8", "4", "1", r == 0 ? "0" : "2", "2"}));
    EXPECT_EQ(step(p, "permute").values, (V{"8", "2", "1", "256"}));
    EXPECT_EQ(step(p, "experts_gate_up").values, (V{"8", "2", "1", "512", "256"}));
    EXPECT_EQ(step(p, "experts_down").values, (V{"8", "2", "1", "256", "256"}));
    EXPECT_EQ(step(p, "unpermute").values, (V{"2", "4", "2", "256"}));
    // Rows: 8 slots + 2 experts x 63, rounded up to 64-row tiles.
    EXPECT_EQ(step(p, "experts_cast").values, (V{"192", "512"}));
    const Tensor& gate_up = p.tensors.at(static_cast<size_t>(p.tensor("experts.gate_up.weight")));
    EXPECT_EQ(gate_up.bytes, 2U * 512 * 256 * 2);
    EXPECT_EQ(gate_up.fill_offset, uint64_t{r} * 2 * 512 * 256);
    EXPECT_EQ(p.tensors.at(static_cast<size_t>(p.tensor("experts.down.weight"))).fill_offset,
              uint64_t{r} * 2 * 256 * 256);
    EXPECT_EQ(p.tensors.at(static_cast<size_t>(p.tensor("x"))).fill_offset, uint64_t{r} * 2 * 256);
    // The align reads the dispatch's slots, the un-permutation the combined rows.
    EXPECT_EQ(step(p, "align").bindings[0].tensor, p.tensor(kDispatchIds));
    EXPECT_EQ(step(p, "permute").bindings[0].tensor, p.tensor(kDispatchRows));
    EXPECT_EQ(step(p, "unpermute").bindings[0].tensor, p.tensor(kCombineRows));
    EXPECT_EQ(step(p, "unpermute").bindings[1].tensor, p.tensor("ep.pair_order"));
    ASSERT_EQ(p.collectives.size(), 2U);
    EXPECT_EQ(p.launches.at(p.collectives[0].after).step, "topk_softmax");
    EXPECT_EQ(p.launches.at(p.collectives[1].after).step, "experts_down");
    // Before the routing is known: every pair of a rank to one rank, 4 rows.
    EXPECT_EQ(traces::format_collective_line(p.collectives[0].command),
              "Collective,alltoall,bytes=4096,type=bf16,ranks=0-1,stream=0");
    EXPECT_EQ(traces::format_collective_line(p.collectives[1].command),
              "Collective,alltoall,bytes=8192,type=fp32,ranks=0-1,stream=0");
  }
  EXPECT_EQ(step(one, "align").values, (V{"4", "4", "2"}));  // one GPU: every expert
  EXPECT_TRUE(one.collectives.empty());
}

TEST(ExpertParallel, TheAllToAllsCarryTheLargestPartOfTheRouting) {
  LayerPlan plan = plan_ep_ranks(two_ranks())[0];
  // Rank 0's pairs go to experts 0, 1, 2, 0 (3 rows to rank 0, 1 to rank 1); rank 1's to
  // 3, 3, 1, 2 (1 and 3).
  const auto rows = dispatch_rows(plan.options, {{0, 1, 2, 0}, {3, 3, 1, 2}});
  EXPECT_EQ(rows, (std::vector<std::vector<uint64_t>>{{3, 1}, {1, 3}}));
  set_alltoall_bytes(plan, 3);
  EXPECT_EQ(plan.collectives[0].command.bytes, 2U * 3 * 256 * 2);  // ep x rows x hidden x BF16
  EXPECT_EQ(plan.collectives[1].command.bytes, 2U * 3 * 256 * 4);  // FP32
  EXPECT_THROW(dispatch_rows(plan.options, {{0, 4, 0, 0}, {0, 0, 0, 0}}), Error);
}

TEST(ExpertParallel, BadValuesAreRefusedNamingTheOption) {
  LayerOptions o = two_ranks();
  o.ep = 3;
  EXPECT_EQ(message_of(o),
            "--ep 3 with --experts 4: each rank holds experts / ep experts, so --experts must be "
            "a multiple of --ep");
  o.ep = 8;
  EXPECT_EQ(message_of(o),
            "--ep 8 with --experts 4: expected 2 to 4 GPUs (the experts are divided among them; "
            "--ep 1 is one GPU)");
  o.ep = 0;
  EXPECT_EQ(message_of(o).substr(0, 28), "--ep 0 with --experts 4: exp");
  o = two_ranks();
  o.batch = 6;
  o.ep = 4;
  EXPECT_EQ(message_of(o),
            "--ep 4 with --batch 6: each rank runs batch / ep sequences (data-parallel "
            "attention), so --batch must be a multiple of --ep");
  o = two_ranks();
  o.tp = 2;
  EXPECT_EQ(message_of(o),
            "--ep 2 with --tp 2: expert parallelism runs data-parallel attention, a whole layer "
            "per rank; combining it with tensor parallelism is not implemented (give one of "
            "them)");
  EXPECT_EQ(message_of(two_ranks(), true),
            "--ep 2: a dense layer has no experts to spread (expert parallelism is moe-layer's; "
            "--tp splits a dense layer)");
}

TEST(ExpertParallel, TheRanksMoeHalvesAreTheOneGpuLayersRows) {
  // A rank's attention half runs its own sequences (its KV cache and context lengths are
  // generated for its batch), so the ranks' `h` (the residual after attention) is given to
  // the one-GPU layer in place of its own before ffn_norm. From there the one-GPU layer
  // routes, multiplies and un-permutes all tokens on one GPU, and rank r's `out` must be
  // rows r x tokens onward of its `out`, bit for bit: every row goes through the same
  // experts' kernels in the same order of accumulation whichever rank computes it.
  std::vector<LayerPlan> plans = plan_ep_ranks(two_ranks());
  LayerCaptureOptions options;  // executed without a trace
  options.listings = fs::path(SASSIM_SOURCE_DIR) / "kernels/sass";
  const EpCapture got = capture_ep_layer(plans, options, {"h", "out"});
  ASSERT_EQ(got.tensors.size(), 2U);
  LayerOptions one_gpu = two_ranks();
  one_gpu.ep = 1;
  const LayerPlan one = plan_moe_layer(one_gpu);
  size_t ffn_norm = 0;
  while (ffn_norm < one.launches.size() && one.launches[ffn_norm].step != "ffn_norm") ++ffn_norm;
  ASSERT_LT(ffn_norm, one.launches.size());
  LayerExecutor whole(one, options);
  std::vector<LaunchReport> reports;
  whole.run(0, ffn_norm, reports);
  const size_t rank_bytes = size_t{plans[0].tokens} * one_gpu.hidden * 2;  // BF16 rows
  std::vector<uint8_t>& h = whole.tensor(one.tensor("h"));
  ASSERT_EQ(h.size(), 2 * rank_bytes);
  for (size_t r = 0; r < 2; ++r) {
    const std::vector<uint8_t>& rank_h = got.tensors[r].at("h");
    ASSERT_EQ(rank_h.size(), rank_bytes);
    std::copy(rank_h.begin(), rank_h.end(),
              h.begin() + static_cast<std::ptrdiff_t>(r * rank_bytes));
  }
  whole.run(ffn_norm, one.launches.size(), reports);
  const std::vector<uint8_t>& out = whole.tensor(one.tensor("out"));
  size_t nonzero = 0;
  for (size_t r = 0; r < 2; ++r) {
    const std::vector<uint8_t>& rank_out = got.tensors[r].at("out");
    ASSERT_EQ(rank_out.size(), rank_bytes) << "rank " << r;
    const auto begin = out.begin() + static_cast<std::ptrdiff_t>(r * rank_bytes);
    EXPECT_TRUE(std::equal(rank_out.begin(), rank_out.end(), begin))
        << "rank " << r << "'s output differs from rows " << r * plans[0].tokens << " onward";
    for (uint8_t byte : rank_out) nonzero += byte != 0;
  }
  EXPECT_GT(nonzero, rank_bytes);  // computed rows, not zeros
  // The routing sent pairs across ranks, so the all-to-alls carried rows.
  EXPECT_GT(got.rows[0][1] + got.rows[1][0], 0U);
}

TEST(ExpertParallel, TheCaptureExchangesTheRowsAndReplaysOnASystem) {
  std::vector<LayerPlan> plans = plan_ep_ranks(two_ranks());
  test_support::ScratchDir dir("expert_parallel_capture");
  LayerCaptureOptions options;
  options.trace_folder = dir.path();
  options.compression = traces::Compression::kNone;
  options.listings = fs::path(SASSIM_SOURCE_DIR) / "kernels/sass";
  options.check = true;  // every launch of every rank against its reference
  const EpCapture got = capture_ep_layer(plans, options);
  ASSERT_EQ(got.reports.size(), 2U);
  for (const auto& reports : got.reports) {
    ASSERT_EQ(reports.size(), plans[0].launches.size());
    for (const LaunchReport& r : reports) EXPECT_FALSE(r.check.empty());
  }
  // Each rank's 4 pairs go somewhere; the lines carry the largest part.
  uint64_t largest = 0;
  for (const auto& from : got.rows) {
    EXPECT_EQ(from[0] + from[1], 4U);
    for (const uint64_t n : from) largest = std::max(largest, n);
  }
  EXPECT_EQ(got.largest_rows, largest);
  for (const LayerPlan& p : plans) {
    EXPECT_EQ(p.collectives[0].command.bytes, 2 * largest * 256 * 2);
    EXPECT_EQ(p.collectives[1].command.bytes, 2 * largest * 256 * 4);
  }
  std::vector<std::string> folders;
  for (uint32_t r = 0; r < 2; ++r) {
    write_collectives(dir.path() / ep_rank_folder(r), plans[r]);
    folders.push_back(ep_rank_folder(r));
  }
  multigpu::write_ranks_file(dir.path(), "two expert-parallel ranks", folders);
  const system::SystemModel model(system::load_system_config("h200x8"));
  const multigpu::SystemPlan system_plan = multigpu::plan_system_run(dir.path(), model);
  ASSERT_EQ(system_plan.players.size(), 2U);  // two distinct traces
  const multigpu::SystemResult r =
      multigpu::run_system(system_plan, config::load_config("h200"), {});
  ASSERT_EQ(r.collectives.size(), 2U);
  for (const multigpu::CollectiveInstance& c : r.collectives) {
    ASSERT_TRUE(c.resolved);
    EXPECT_EQ(c.call.op, system::CollectiveOp::kAllToAll);
  }
  // The align waits for the dispatch, the un-permutation for the combine.
  for (const multigpu::PlayerResult& p : r.players) {
    ASSERT_EQ(p.kernels.size(), plans[0].launches.size());
    EXPECT_GE(p.kernels[plans[0].collectives[0].after + 1].start_cycle * r.core_period_ps,
              r.collectives[0].end);
    EXPECT_GE(p.kernels[plans[0].collectives[1].after + 1].start_cycle * r.core_period_ps,
              r.collectives[1].end);
  }
}

}  // namespace
}  // namespace sassim::emu::workload
