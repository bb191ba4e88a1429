// Expansion of a spec into runs: the axes' cartesian product then the explicit points,
// on every trace; run ids that stay the same across invocations and differ between runs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "ground/error.h"
#include "sweep/param_column.h"
#include "sweep/run_attempt.h"
#include "sweep/sweep_plan.h"
#include "sweep_test_support.h"

namespace sassim::sweep::test {
namespace {

using ::testing::ElementsAre;

class Plan : public ::testing::Test {
 protected:
  SweepPlan load(const std::string& rest) {
    write_file(dir_.path() / "spec.txtpb", "base_config: \"gtx1080\"\ntrace: \"" +
                                               repo_path(kVectorAdd).string() + "\"\n" + rest);
    return load_sweep_plan(dir_.path() / "spec.txtpb", dir_.path() / "out");
  }
  TempDir dir_{"plan"};
};

std::vector<std::vector<std::string>> overrides(const SweepPlan& plan) {
  std::vector<std::vector<std::string>> all;
  for (const ConfigPoint& p : plan.points) all.push_back(p.overrides);
  return all;
}

TEST_F(Plan, AxesMakeTheirCartesianProductLastAxisFastestThenThePoints) {
  const SweepPlan plan = load(
      "axis { path: \"sm.scheduler.policy\" values: [\"gto\", \"lrr\"] }\n"
      "axis { path: \"num_sms\" values: [\"1\", \"2\", \"4\"] }\n"
      "point { set: [\"num_sms=8\", \"l1.hit_latency_cycles=50\"] }\n"
      "point { }\n");
  using V = std::vector<std::string>;
  EXPECT_THAT(overrides(plan), ElementsAre(V{"sm.scheduler.policy=gto", "num_sms=1"},
                                           V{"sm.scheduler.policy=gto", "num_sms=2"},
                                           V{"sm.scheduler.policy=gto", "num_sms=4"},
                                           V{"sm.scheduler.policy=lrr", "num_sms=1"},
                                           V{"sm.scheduler.policy=lrr", "num_sms=2"},
                                           V{"sm.scheduler.policy=lrr", "num_sms=4"},
                                           V{"num_sms=8", "l1.hit_latency_cycles=50"}, V{}));
  EXPECT_THAT(plan.params, ElementsAre("sm.scheduler.policy", "num_sms", "l1.hit_latency_cycles"));
  EXPECT_EQ(plan.points[4].config.sm().scheduler().policy(), "lrr");
  EXPECT_EQ(plan.points[4].config.num_sms(), 2u);
  EXPECT_EQ(plan.points[6].config.l1().hit_latency_cycles(), 50u);
}

TEST_F(Plan, NoAxisAndNoPointRunsTheBaseConfig) {
  const SweepPlan plan = load("");
  ASSERT_EQ(plan.points.size(), 1u);
  EXPECT_TRUE(plan.points[0].overrides.empty());
  EXPECT_EQ(plan.runs.size(), 1u);
}

TEST_F(Plan, RunsAreTracesTimesPointsTraceMajor) {
  const SweepPlan plan = load("trace: \"" + repo_path(kMatrixMul).string() +
                              "\"\naxis { path: \"num_sms\" values: [\"1\", \"2\", \"4\"] }\n");
  ASSERT_EQ(plan.runs.size(), 6u);
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    EXPECT_EQ(plan.runs[i].index, i);
    EXPECT_EQ(plan.runs[i].trace, i / 3);
    EXPECT_EQ(plan.runs[i].point, i % 3);
  }
}

TEST_F(Plan, RunIdsAreDistinctAndStableAcrossLoadsAndSpecGrowth) {
  const std::string axes = "axis { path: \"num_sms\" values: [\"1\", \"2\"] }\n";
  const SweepPlan first = load("trace: \"" + repo_path(kMatrixMul).string() + "\"\n" + axes);
  const SweepPlan again = load("trace: \"" + repo_path(kMatrixMul).string() + "\"\n" + axes);
  std::set<std::string> ids;
  for (std::size_t i = 0; i < first.runs.size(); ++i) {
    EXPECT_EQ(first.runs[i].id, again.runs[i].id);
    EXPECT_EQ(first.runs[i].id.size(), 12u);
    ids.insert(first.runs[i].id);
  }
  EXPECT_EQ(ids.size(), first.runs.size());
  // Adding a value keeps the ids of the runs that were there.
  const SweepPlan grown = load("trace: \"" + repo_path(kMatrixMul).string() +
                               "\"\naxis { path: \"num_sms\" values: [\"1\", \"4\", \"2\"] }\n");
  EXPECT_EQ(grown.runs[0].id, first.runs[0].id);  // vectoradd, num_sms=1
  EXPECT_EQ(grown.runs[2].id, first.runs[1].id);  // vectoradd, num_sms=2
  EXPECT_EQ(grown.runs[5].id, first.runs[3].id);  // matrixmul, num_sms=2
}

TEST_F(Plan, RunIdsOfTheBundledSpecAreGolden) {
  // Ids name finished runs on disk: a change of their recipe would redo every sweep.
  const SweepPlan plan = load_sweep_plan(sweep_data("small.txtpb"), dir_.path() / "out");
  ASSERT_EQ(plan.runs.size(), 10u);
  EXPECT_EQ(plan.runs[0].id, "4e305ae895a6");
  EXPECT_EQ(plan.runs[9].id, "3ba340642318");
  EXPECT_EQ(run_record(plan, plan.runs[9]),
            "sassim sweep run\nid: 3ba340642318\n"
            "trace=../../../traces/reference/gtx1080-microgpusim/test-apps/matrixmul/traces/"
            "matrixmul-32-32-trace\nbase_config=gtx1080\nset=num_sms=1\n"
            "set=sm.units.fp32.latency_cycles=12\nconfig_digest: " +
                plan.points[4].config_digest + "\n");
}

TEST_F(Plan, RunsGetTheirHostThreadsWhichAreNotPartOfTheirIdentity) {
  SweepPlan plan = load_sweep_plan(sweep_data("small.txtpb"), dir_.path() / "out");
  const std::string record = run_record(plan, plan.runs[9]);
  auto threads_argument = [&] {
    const std::vector<std::string> argv = run_arguments(plan, plan.runs[9], "sassim");
    for (std::size_t i = 0; i + 1 < argv.size(); ++i) {
      if (argv[i] == "--threads") return argv[i + 1];
    }
    return std::string("none");
  };
  EXPECT_EQ(threads_argument(), "1");
  plan.threads_per_run = 4;
  EXPECT_EQ(threads_argument(), "4");
  EXPECT_EQ(plan.runs[9].id, "3ba340642318");
  EXPECT_EQ(run_record(plan, plan.runs[9]), record);
}

TEST_F(Plan, KernelSamplingGoesToEveryRunAndIntoItsRecord) {
  const SweepPlan full = load("");
  const SweepPlan sampled = load("sample: \"kernels\"\n");
  EXPECT_EQ(full.sample, "off");
  EXPECT_EQ(sampled.sample, "kernels");
  const std::vector<std::string> argv = run_arguments(sampled, sampled.runs[0], "sassim");
  const auto at = std::find(argv.begin(), argv.end(), "--sample");
  ASSERT_NE(at, argv.end());
  EXPECT_EQ(*(at + 1), "kernels");
  const std::vector<std::string> plain = run_arguments(full, full.runs[0], "sassim");
  EXPECT_EQ(std::find(plain.begin(), plain.end(), "--sample"), plain.end());
  // Same run, same id; a finished run of the other mode is not reused.
  EXPECT_EQ(full.runs[0].id, sampled.runs[0].id);
  EXPECT_EQ(run_record(sampled, sampled.runs[0]),
            run_record(full, full.runs[0]) + "sample: kernels\n");
}

TEST_F(Plan, ConfigDigestFollowsTheResolvedConfig) {
  write_file(dir_.path() / "base.txtpb", "base: \"gtx1080\"\n");
  const std::string rest = "point { set: \"num_sms=2\" }\n";
  write_file(dir_.path() / "spec.txtpb", "base_config: \"base.txtpb\"\ntrace: \"" +
                                             repo_path(kVectorAdd).string() + "\"\n" + rest);
  const SweepPlan before = load_sweep_plan(dir_.path() / "spec.txtpb", dir_.path() / "out");
  write_file(dir_.path() / "base.txtpb", "base: \"gtx1080\"\nl1 { hit_latency_cycles: 7 }\n");
  const SweepPlan after = load_sweep_plan(dir_.path() / "spec.txtpb", dir_.path() / "out");
  EXPECT_EQ(before.runs[0].id, after.runs[0].id);
  EXPECT_NE(before.points[0].config_digest, after.points[0].config_digest);
  EXPECT_NE(run_record(before, before.runs[0]), run_record(after, after.runs[0]));
}

TEST(ParamColumn, ValuesAreTypedByTheirField) {
  config::GpuConfig config;
  config.set_num_sms(12);
  config.mutable_sm()->mutable_scheduler()->set_policy("lrr");
  config.mutable_clocks()->set_core_mhz(1500.5);
  (*config.mutable_sm()->mutable_opcode_latency_cycles())["IMAD"] = 9;
  Column sms = make_param_column("num_sms");
  Column policy = make_param_column("sm.scheduler.policy");
  Column mhz = make_param_column("clocks.core_mhz");
  Column imad = make_param_column("sm.opcode_latency_cycles.IMAD");
  Column ffma = make_param_column("sm.opcode_latency_cycles.FFMA");
  for (Column* c : {&sms, &policy, &mhz, &imad, &ffma}) append_param_value(*c, config);
  EXPECT_EQ(std::get<std::vector<std::uint64_t>>(sms.values), std::vector<std::uint64_t>{12});
  EXPECT_EQ(std::get<std::vector<std::string>>(policy.values), std::vector<std::string>{"lrr"});
  EXPECT_EQ(std::get<std::vector<double>>(mhz.values), std::vector<double>{1500.5});
  EXPECT_EQ(std::get<std::vector<std::uint64_t>>(imad.values), std::vector<std::uint64_t>{9});
  EXPECT_EQ(std::get<std::vector<std::uint64_t>>(ffma.values), std::vector<std::uint64_t>{0});
}

// An entry of a list of messages, named by its index as --set names it; an entry the
// config does not have reads as the field's default.
TEST(ParamColumn, ListEntriesByIndex) {
  config::GpuConfig config;
  config.mutable_sm()->add_tensor_ops()->set_initiation_interval_cycles_per_n(0.5);
  config.mutable_sm()->add_tensor_ops()->set_initiation_interval_cycles_per_n(0.25);
  Column second = make_param_column("sm.tensor_ops[1].initiation_interval_cycles_per_n");
  Column third = make_param_column("sm.tensor_ops[2].initiation_interval_cycles_per_n");
  for (Column* c : {&second, &third}) append_param_value(*c, config);
  EXPECT_EQ(std::get<std::vector<double>>(second.values), std::vector<double>{0.25});
  EXPECT_EQ(std::get<std::vector<double>>(third.values), std::vector<double>{0.0});
  for (const char* bad : {"sm.tensor_ops[x].latency_cycles", "sm.tensor_ops[1]",
                          "sm.scheduler[0].policy", "sm.tensor_ops.latency_cycles"}) {
    EXPECT_THROW(make_param_column(bad), Error) << bad;
  }
}

}  // namespace
}  // namespace sassim::sweep::test
