// plan_system_run on small rank folders: players shared by the ranks that replay one
// folder, each communicator's k-th calls matched across its ranks, and every error
// naming the files and lines at fault.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "ground/error.h"
#include "multigpu/system_run.h"
#include "system/system_config_loader.h"
#include "tests/multigpu/rank_folders.h"
#include "tests/support/test_scratch_dir.h"

namespace sassim::multigpu {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::write_rank;
using testing::write_ranks;

class SystemPlanTest : public ::testing::Test {
 protected:
  // The message plan_system_run throws for the folder ("" when it throws none).
  std::string error_of() {
    try {
      plan_system_run(dir_.path(), model_);
    } catch (const Error& e) {
      return e.what();
    }
    ADD_FAILURE() << "no error";
    return "";
  }
  const std::filesystem::path& root() const { return dir_.path(); }
  // A rank folder as the plan names it.
  std::filesystem::path plan_folder(const std::string& name) const {
    return std::filesystem::canonical(root() / name);
  }

  test_support::TestScratchDir dir_{"system_plan_"};
  system::SystemModel model_{system::load_system_config("h200x8")};
};

std::string all_reduce(std::string_view ranks, int bytes = 64, std::string_view type = "bf16") {
  return fmt::format("Collective,all_reduce,bytes={},type={},ranks={}", bytes, type, ranks);
}

TEST_F(SystemPlanTest, RanksReplayingOneFolderShareAPlayer) {
  write_rank(root(), "rank-a", {"kernel-1.traceg", all_reduce("all"), "kernel-2.traceg"});
  write_rank(root(), "rank-b", {all_reduce("all")});
  write_ranks(root(), {"rank-a", "rank-b", "./rank-a", "rank-b"});
  const SystemPlan plan = plan_system_run(root(), model_);
  EXPECT_EQ(plan.rank_folders.size(), 4u);
  ASSERT_EQ(plan.folders.size(), 2u);
  EXPECT_EQ(plan.folders[0].filename(), "rank-a");
  EXPECT_EQ(plan.folders[1].filename(), "rank-b");
  ASSERT_EQ(plan.players.size(), 2u);
  EXPECT_THAT(plan.players[0].ranks, ElementsAre(0u, 2u));
  EXPECT_THAT(plan.players[1].ranks, ElementsAre(1u, 3u));
  ASSERT_EQ(plan.instances.size(), 1u);
  EXPECT_THAT(plan.instances[0].call.ranks, ElementsAre(0u, 1u, 2u, 3u));  // all: the run's
  EXPECT_EQ(plan.instances[0].call.bytes, 64u);
  EXPECT_EQ(plan.instances[0].call.type, system::DataType::kBf16);
  EXPECT_THAT(plan.instances[0].source, EndsWith("rank-a/kernelslist.g:2"));
  EXPECT_GT(plan.instances[0].result.time_ps, 0);
  EXPECT_EQ(plan.instances[0].result.time_ps, model_.run(plan.instances[0].call).time_ps);
  EXPECT_THAT(plan.players[0].instances, ElementsAre(0u));
  EXPECT_THAT(plan.players[1].instances, ElementsAre(0u));
}

TEST_F(SystemPlanTest, CallsMatchByCommunicatorAndOrderOnIt) {
  // Rank 0 talks to rank 1 then to rank 2; ranks 1 and 2 each see one of those calls.
  write_rank(root(), "rank-0",
             {all_reduce("0-1"), "Collective,all_gather,bytes=128,type=fp16,ranks=0:2",
              all_reduce("0-1", 256)});
  write_rank(root(), "rank-1", {all_reduce("0-1"), all_reduce("0-1", 256)});
  write_rank(root(), "rank-2", {"Collective,all_gather,bytes=128,type=fp16,ranks=0:2"});
  write_ranks(root(), {"rank-0", "rank-1", "rank-2"});
  const SystemPlan plan = plan_system_run(root(), model_);
  ASSERT_EQ(plan.instances.size(), 3u);
  EXPECT_EQ(plan.instances[0].call.op, system::CollectiveOp::kAllReduce);
  EXPECT_THAT(plan.instances[0].call.ranks, ElementsAre(0u, 1u));
  EXPECT_EQ(plan.instances[1].call.op, system::CollectiveOp::kAllGather);
  EXPECT_THAT(plan.instances[1].call.ranks, ElementsAre(0u, 2u));
  EXPECT_EQ(plan.instances[2].call.bytes, 256u);
  EXPECT_THAT(plan.players[0].instances, ElementsAre(0u, 1u, 2u));
  EXPECT_THAT(plan.players[1].instances, ElementsAre(0u, 2u));
  EXPECT_THAT(plan.players[2].instances, ElementsAre(1u));
}

TEST_F(SystemPlanTest, ACallThatDiffersBetweenRanksNamesBothLines) {
  write_rank(root(), "rank-0", {"kernel-1.traceg", all_reduce("0-1"), all_reduce("0-1")});
  write_rank(root(), "rank-1", {all_reduce("0-1"), all_reduce("0-1", 64, "fp16")});
  write_ranks(root(), {"rank-0", "rank-1"});
  const std::string message = error_of();
  EXPECT_THAT(message, StartsWith((plan_folder("rank-1") / "kernelslist.g:2: ").string()));
  EXPECT_THAT(message, HasSubstr("all_reduce fp16 64 B is call 2 on the communicator of ranks 0-1, "
                                 "where " +
                                 (plan_folder("rank-0") / "kernelslist.g:3").string() +
                                 " calls all_reduce bf16 64 B"));
}

TEST_F(SystemPlanTest, ARankOutsideTheRun) {
  write_rank(root(), "rank-0", {all_reduce("0-3")});
  write_rank(root(), "rank-1", {all_reduce("0-3")});
  write_ranks(root(), {"rank-0", "rank-1"});
  EXPECT_THAT(error_of(), AllOf(HasSubstr("rank-0/kernelslist.g:1: "),
                                HasSubstr("rank 2 of ranks=0-3: the run has 2 ranks (ranks.g)")));
}

TEST_F(SystemPlanTest, ARankReplayingATraceOutsideItsCommunicator) {
  write_rank(root(), "rank-0", {all_reduce("0:2")});
  write_rank(root(), "rank-2", {all_reduce("0:2")});
  write_ranks(root(), {"rank-0", "rank-0", "rank-2"});
  EXPECT_THAT(error_of(), AllOf(HasSubstr("rank-0/kernelslist.g:1: "),
                                HasSubstr("rank 1 replays this trace but is not in ranks=0:2")));
}

TEST_F(SystemPlanTest, ACallMadeByFewerThanAllItsRanks) {
  write_rank(root(), "rank-0", {all_reduce("0-1"), "kernel-1.traceg", all_reduce("0-1")});
  write_rank(root(), "rank-1", {all_reduce("0-1")});
  write_ranks(root(), {"rank-0", "rank-1"});
  EXPECT_THAT(error_of(),
              AllOf(HasSubstr("rank-0/kernelslist.g:3: "),
                    HasSubstr("all_reduce bf16 64 B on ranks 0-1 is made by 1 of its 2 ranks: "
                              "each rank's trace must call it")));
}

TEST_F(SystemPlanTest, MoreRanksThanTheSystemHasGpus) {
  write_rank(root(), "rank-0", {all_reduce("all")});
  write_ranks(root(), std::vector<std::string>(9, "rank-0"));
  EXPECT_THAT(error_of(), AllOf(StartsWith(root().string() + ": 9 ranks"),
                                HasSubstr("9 ranks, but the system 'NVIDIA HGX H200' has 8 GPUs")));
}

TEST_F(SystemPlanTest, AnUnknownOperationOrType) {
  write_rank(root(), "rank-0", {"Collective,broadcast,bytes=64,type=bf16,ranks=0-1"});
  write_rank(root(), "rank-1", {all_reduce("0-1", 64, "int8")});
  write_ranks(root(), {"rank-0", "rank-1"});
  EXPECT_THAT(error_of(), AllOf(HasSubstr("rank-0/kernelslist.g:1: operation 'broadcast': "
                                          "expected all_reduce, all_gather")));
  write_rank(root(), "rank-0", {all_reduce("0-1")});
  EXPECT_THAT(error_of(), AllOf(HasSubstr("rank-1/kernelslist.g:1: type 'int8': expected bf16, "
                                          "fp16 or fp32")));
}

TEST_F(SystemPlanTest, ARanksLineWithoutATraceFolder) {
  write_rank(root(), "rank-0", {all_reduce("0-1")});
  write_ranks(root(), {"rank-0", "nowhere"});
  EXPECT_THAT(error_of(), AllOf(StartsWith((root() / "ranks.g").string() + ":3: rank 1: "),
                                HasSubstr("nowhere holds no kernelslist.g")));
}

}  // namespace
}  // namespace sassim::multigpu
