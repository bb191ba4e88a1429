// `sassim workload --tp N` (traces/emu/workload/tensor_parallel.h): a rank's shard is the
// layer with heads, KV heads and FFN divided by N, followed by an all-reduce of the
// hidden state after each row-parallel projection; its capture lists them after those
// kernels, and the folder replays on a system with every rank's collectives matched.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "configs/config_loader.h"
#include "ground/error.h"
#include "multigpu/ranks_file.h"
#include "multigpu/system_run.h"
#include "system/system_config_loader.h"
#include "tests/support/scratch_dir.h"
#include "traces/emu/workload/layer_capture.h"
#include "traces/emu/workload/tensor_parallel.h"
#include "traces/kernelslist.h"

namespace sassim::emu::workload {
namespace {

namespace fs = std::filesystem;

// Two ranks of hidden 256, 8 query heads on 2 KV heads, ffn 512: each rank holds the
// small layer of layer_capture_test (4 heads on 1 KV head, ffn 256).
LayerOptions two_ranks() {
  return {.batch = 2,
          .context = 600,
          .hidden = 256,
          .heads = 8,
          .kv_heads = 2,
          .ffn = 512,
          .sm_version = 90,
          .gemm = GemmChoice::kSkinny,
          .tp = 2};
}

std::string message_of(const LayerOptions& o) {
  try {
    plan_dense_layer(o);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(TensorParallel, AShardIsTheLayerOfTheDividedShapes) {
  const LayerPlan tp = plan_dense_layer(two_ranks());
  LayerOptions shard = two_ranks();
  shard.heads = 4;
  shard.kv_heads = 1;
  shard.ffn = 256;
  shard.tp = 1;
  const LayerPlan one = plan_dense_layer(shard);
  EXPECT_EQ(tp.options.tp, 2U);
  EXPECT_EQ(tp.options.heads, 4U);
  EXPECT_EQ(tp.options.ffn, 256U);
  ASSERT_EQ(tp.launches.size(), one.launches.size());
  for (size_t i = 0; i < tp.launches.size(); ++i) {
    EXPECT_EQ(tp.launches[i].kernel, one.launches[i].kernel) << i;
    EXPECT_EQ(tp.launches[i].values, one.launches[i].values) << i;
  }
  EXPECT_TRUE(one.collectives.empty());
  ASSERT_EQ(tp.collectives.size(), 2U);
  const std::vector<std::string> after{"o_proj", "down_proj"};
  for (size_t k = 0; k < 2; ++k) {
    const PlannedCollective& c = tp.collectives[k];
    EXPECT_EQ(tp.launches.at(c.after).step, after[k]);
    EXPECT_EQ(c.command.op, "all_reduce");
    EXPECT_EQ(c.command.type, "bf16");
    EXPECT_EQ(c.command.bytes, 2U * 256U * 2U);  // 2 tokens x hidden 256 x BF16
    EXPECT_EQ(c.command.ranks, (std::vector<uint32_t>{0, 1}));
  }
}

TEST(TensorParallel, TheMoeLayerReducesAfterItsUnpermutation) {
  LayerOptions o = two_ranks();
  o.experts = 4;
  const LayerPlan plan = plan_moe_layer(o);
  ASSERT_EQ(plan.collectives.size(), 2U);
  EXPECT_EQ(plan.launches.at(plan.collectives[0].after).step, "o_proj");
  EXPECT_EQ(plan.launches.at(plan.collectives[1].after).step, "unpermute");
}

TEST(TensorParallel, ShapesThatDoNotDivideAreRefusedNamingTheOption) {
  LayerOptions o = two_ranks();
  o.tp = 4;  // 8 heads, 2 KV heads
  EXPECT_EQ(message_of(o),
            "--tp 4 with --kv-heads 2: each rank holds --kv-heads / tp of them, so --kv-heads "
            "must be a multiple of --tp");
  o.tp = 0;
  EXPECT_EQ(message_of(o), "--tp 0: expected 1 to 64 GPUs");
  o.tp = 65;
  EXPECT_EQ(message_of(o), "--tp 65: expected 1 to 64 GPUs");
}

TEST(TensorParallel, TheCaptureListsTheAllReducesAndReplaysOnASystem) {
  const LayerPlan plan = plan_dense_layer(two_ranks());
  test_support::ScratchDir dir("tensor_parallel_capture");
  LayerCaptureOptions options;
  options.trace_folder = dir.path() / "rank-0";
  options.compression = traces::Compression::kNone;
  options.listings = fs::path(SASSIM_SOURCE_DIR) / "kernels/sass";
  std::vector<LaunchReport> reports;
  capture_layer(plan, options, reports);
  write_collectives(options.trace_folder, plan);
  // Each all-reduce right after its projection's kernel file.
  std::vector<std::string> order;
  for (const traces::ListEntry& e :
       traces::read_kernelslist(options.trace_folder / "kernelslist.g")) {
    if (const auto* k = std::get_if<traces::KernelFile>(&e)) order.push_back(k->path.filename());
    if (std::holds_alternative<traces::CollectiveCommand>(e)) order.push_back("all_reduce");
  }
  ASSERT_EQ(order.size(), 20U);
  EXPECT_EQ(order[10], "kernel-11.traceg");  // o_proj
  EXPECT_EQ(order[11], "all_reduce");
  EXPECT_EQ(order[17], "kernel-17.traceg");  // down_proj
  EXPECT_EQ(order[18], "all_reduce");
  EXPECT_EQ(order[19], "kernel-18.traceg");

  multigpu::write_ranks_file(dir.path(), "two ranks", {"rank-0", "rank-0"});
  const system::SystemModel model(system::load_system_config("h200x8"));
  const multigpu::SystemPlan system_plan = multigpu::plan_system_run(dir.path(), model);
  ASSERT_EQ(system_plan.players.size(), 1U);
  EXPECT_EQ(system_plan.players[0].ranks, (std::vector<uint32_t>{0, 1}));
  const multigpu::SystemResult r =
      multigpu::run_system(system_plan, config::load_config("h200"), {});
  ASSERT_EQ(r.players[0].kernels.size(), 18U);
  ASSERT_EQ(r.collectives.size(), 2U);
  // The residual add after each all-reduce starts once it has ended.
  const std::vector<size_t> next{11, 17};
  for (size_t k = 0; k < 2; ++k) {
    const multigpu::CollectiveInstance& c = r.collectives[k];
    ASSERT_TRUE(c.resolved);
    EXPECT_GT(c.end, c.start);
    EXPECT_GE(r.players[0].kernels[next[k]].start_cycle * r.core_period_ps, c.end);
  }
  EXPECT_GE(r.end, r.collectives[1].end);
}

// A list missing a projection's kernel cannot hold its all-reduce.
TEST(TensorParallel, WritingCollectivesIntoAListWithoutTheirKernelsFails) {
  const LayerPlan plan = plan_dense_layer(two_ranks());
  test_support::ScratchDir dir("tensor_parallel_short_list");
  std::ofstream(dir.path() / "kernelslist.g") << "kernel-1.traceg\nkernel-11.traceg\n";
  try {
    write_collectives(dir.path(), plan);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("1 of the layer's 2 collectives placed"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace sassim::emu::workload
