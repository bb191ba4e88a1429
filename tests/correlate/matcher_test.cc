// Matching by name and launch order, with unmatched launches reported on both sides.
#include "correlate/matcher.h"

#include <gtest/gtest.h>

namespace sassim::correlate {
namespace {

SimKernel sim_kernel(const std::string& name, std::uint32_t id, double cycles) {
  return {name, id, cycles, "sim.h5"};
}

HwKernel hw_kernel(const std::string& name, double cycles, std::size_t line) {
  return {name, cycles, "m", "hw.csv", line, ""};
}

TEST(Matcher, MangledSimulationMatchesDemangledHardware) {
  const MatchResult r =
      match_kernels({sim_kernel("_Z6vecAddIfEvPT_S1_S1_i", 1, 367)},
                    {hw_kernel("void vecAdd<float>(float *, float *, float *, int)", 5773.25, 3)});
  EXPECT_EQ(r.level, NameLevel::kFull);
  ASSERT_EQ(r.matched.size(), 1U);
  EXPECT_EQ(r.matched[0].sim.cycles, 367);
  EXPECT_EQ(r.matched[0].hw.cycles, 5773.25);
  EXPECT_TRUE(r.unmatched_sim.empty());
  EXPECT_TRUE(r.unmatched_hw.empty());
}

TEST(Matcher, KthLaunchMatchesKthLaunchOfTheSameName) {
  const std::string a = "_Z1ai", b = "_Z1bi";
  const MatchResult r =
      match_kernels({sim_kernel(a, 1, 10), sim_kernel(b, 2, 20), sim_kernel(a, 3, 30)},
                    {hw_kernel("void a(int)", 11, 2), hw_kernel("void b(int)", 21, 3),
                     hw_kernel("void a(int)", 31, 4)});
  ASSERT_EQ(r.matched.size(), 3U);
  EXPECT_EQ(r.matched[0].sim.id, 1U);
  EXPECT_EQ(r.matched[0].hw.line, 2U);
  EXPECT_EQ(r.matched[0].ordinal, 0U);
  EXPECT_EQ(r.matched[1].sim.id, 2U);
  EXPECT_EQ(r.matched[1].hw.line, 3U);
  EXPECT_EQ(r.matched[2].sim.id, 3U);
  EXPECT_EQ(r.matched[2].hw.line, 4U);
  EXPECT_EQ(r.matched[2].ordinal, 1U);
}

TEST(Matcher, ReportsWhatDidNotMatchOnEitherSide) {
  const MatchResult r = match_kernels(
      {sim_kernel("_Z1ai", 1, 10), sim_kernel("_Z1ai", 2, 10), sim_kernel("_Z4onlyv", 3, 5)},
      {hw_kernel("void a(int)", 11, 2), hw_kernel("void hw_only(float)", 7, 3),
       hw_kernel("void hw_only(float)", 8, 4)});
  ASSERT_EQ(r.matched.size(), 1U);
  ASSERT_EQ(r.unmatched_sim.size(), 2U);
  EXPECT_EQ(r.unmatched_sim[0].sim.id, 2U);
  EXPECT_EQ(r.unmatched_sim[0].ordinal, 1U);
  EXPECT_EQ(r.unmatched_sim[0].reason, "the hardware data has only 1 launch");
  EXPECT_EQ(r.unmatched_sim[1].sim.id, 3U);
  EXPECT_EQ(r.unmatched_sim[1].reason, "no hardware launch of this kernel");
  ASSERT_EQ(r.unmatched_hw.size(), 2U);
  EXPECT_EQ(r.unmatched_hw[0].hw.line, 3U);
  EXPECT_EQ(r.unmatched_hw[1].hw.line, 4U);
  EXPECT_EQ(r.unmatched_hw[1].ordinal, 1U);
  EXPECT_EQ(r.unmatched_hw[0].reason, "no simulated launch of this kernel");
}

TEST(Matcher, ExtraHardwareLaunchesAreReported) {
  const MatchResult r =
      match_kernels({sim_kernel("_Z6vecAddIfEvPT_S1_S1_i", 1, 367)},
                    {hw_kernel("vecAdd", 5773.25, 3), hw_kernel("vecAdd", 5761, 4),
                     hw_kernel("vecAdd", 5800.25, 5)});
  EXPECT_EQ(r.level, NameLevel::kBase);
  ASSERT_EQ(r.matched.size(), 1U);
  EXPECT_EQ(r.matched[0].hw.cycles, 5773.25);
  EXPECT_EQ(r.matched[0].key, "vecAdd");
  ASSERT_EQ(r.unmatched_hw.size(), 2U);
  EXPECT_EQ(r.unmatched_hw[0].reason, "the simulation has only 1 launch");
  ASSERT_FALSE(r.notes.empty());
}

TEST(Matcher, BaseNamesTellWhenDistinctKernelsShareOne) {
  const MatchResult r =
      match_kernels({sim_kernel("_Z1kIiEvPT_", 1, 10), sim_kernel("_Z1kIfEvPT_", 2, 20)},
                    {hw_kernel("k", 12, 2), hw_kernel("k", 22, 3)});
  EXPECT_EQ(r.level, NameLevel::kBase);
  ASSERT_EQ(r.matched.size(), 2U);
  EXPECT_EQ(r.matched[1].hw.cycles, 22);
  ASSERT_EQ(r.notes.size(), 2U);
  EXPECT_NE(r.notes[1].find("2 distinct simulated kernels share the base name \"k\""),
            std::string::npos);
}

TEST(Matcher, FullNamesKeepTemplateInstancesApart) {
  const MatchResult r = match_kernels(
      {sim_kernel("_Z1kIiEvPT_", 1, 10), sim_kernel("_Z1kIfEvPT_", 2, 20)},
      {hw_kernel("void k<float>(float*)", 22, 2), hw_kernel("void k<int>(int*)", 12, 3)});
  EXPECT_EQ(r.level, NameLevel::kFull);
  ASSERT_EQ(r.matched.size(), 2U);
  EXPECT_EQ(r.matched[0].hw.cycles, 12);
  EXPECT_EQ(r.matched[1].hw.cycles, 22);
}

}  // namespace
}  // namespace sassim::correlate
