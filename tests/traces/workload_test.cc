// Workloads from kernelslist.g: command order, memory copies, .xz fallback, peeking at
// the first kernel, summaries.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "traces/accelsim_reader.h"
#include "traces/trace_summary.h"

namespace sassim::traces {
namespace {

using ::testing::HasSubstr;

const std::filesystem::path kSmall =
    std::filesystem::path(SASSIM_TEST_DATA_DIR) / "traces/small_workload";

TEST(Workload, CommandsInListOrder) {
  auto w = open_accelsim_workload(kSmall);
  auto c1 = w->next();
  ASSERT_TRUE(c1.has_value());
  const auto& copy1 = std::get<MemcpyHtoD>(*c1);
  EXPECT_EQ(copy1.address, 0x00007f2b2d500000u);
  EXPECT_EQ(copy1.bytes, 400u);
  auto c2 = w->next();
  ASSERT_TRUE(c2.has_value());
  EXPECT_EQ(std::get<KernelLaunch>(*c2).kernel->info().id, 1u);
  auto c3 = w->next();
  ASSERT_TRUE(c3.has_value());
  EXPECT_EQ(std::get<MemcpyHtoD>(*c3).bytes, 8u);
  auto c4 = w->next();
  ASSERT_TRUE(c4.has_value());
  const KernelTrace& k2 = *std::get<KernelLaunch>(*c4).kernel;
  EXPECT_EQ(k2.info().id, 2u);
  EXPECT_EQ(k2.info().source, (kSmall / "kernel-2.traceg.xz").string());  // .xz fallback
  EXPECT_EQ(k2.info().arch, isa::Arch::kSm80);
  EXPECT_FALSE(w->next().has_value());
}

TEST(Workload, OpensAListFileToo) {
  auto w = open_accelsim_workload(kSmall / "kernelslist.g");
  EXPECT_THAT(w->description(), HasSubstr("kernelslist.g (2 kernels, 2 memory copies)"));
}

TEST(Workload, FirstKernelInfoDoesNotConsumeCommands) {
  auto w = open_accelsim_workload(kSmall);
  auto info = w->first_kernel_info();
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->id, 1u);
  EXPECT_EQ(info->arch, isa::Arch::kSm70);
  EXPECT_EQ(w->first_kernel_info()->id, 1u);
  EXPECT_TRUE(std::holds_alternative<MemcpyHtoD>(*w->next()));
  auto launch = w->next();
  ASSERT_TRUE(launch.has_value());
  KernelTrace& k1 = *std::get<KernelLaunch>(*launch).kernel;
  EXPECT_EQ(k1.info().id, 1u);
  int ctas = 0;
  while (k1.next_cta()) ++ctas;
  EXPECT_EQ(ctas, 2);
  EXPECT_EQ(w->first_kernel_info()->id, 1u);  // still the first kernel after it was consumed
}

TEST(Workload, FirstKernelInfoAfterConsumption) {
  auto w = open_accelsim_workload(kSmall);
  w->next();
  w->next();
  w->next();
  EXPECT_EQ(w->first_kernel_info()->id, 1u);
}

TEST(Workload, Summary) {
  auto w = open_accelsim_workload(kSmall);
  auto s = summarize(*w);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].info.id, 1u);
  EXPECT_EQ(s[0].ctas, 2u);
  EXPECT_EQ(s[0].warps, 2u);  // the one warp of each CTA
  EXPECT_EQ(s[0].warp_insts, 6u);
  EXPECT_EQ(s[0].mem_insts, 2u);
  EXPECT_EQ(s[0].opcode_mix.at("MOV"), 2u);
  EXPECT_EQ(s[0].opcode_mix.at("LDG"), 2u);
  EXPECT_EQ(s[0].opcode_mix.at("EXIT"), 2u);
  EXPECT_EQ(s[1].warp_insts, 2u);
  EXPECT_EQ(s[1].mem_insts, 1u);
  EXPECT_EQ(s[1].opcode_mix.size(), 2u);
}

TEST(Workload, ReferenceSummaryMatchesTotals) {
  auto w =
      open_accelsim_workload(std::filesystem::path(SASSIM_SOURCE_DIR) /
                             "traces/reference/rtx-turing-vecadd-v1.2/util/tracer_nvbit/traces/"
                             "GPU_0");
  auto s = summarize(*w);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].ctas, 98u);
  EXPECT_EQ(s[0].warps, 3136u);
  EXPECT_EQ(s[0].warp_insts, 46941u);
  // vecAdd of doubles: 2 loads + 1 store per active warp (3125 warps do the work).
  EXPECT_EQ(s[0].mem_insts, 3u * 3125u);
  EXPECT_EQ(s[0].opcode_mix.at("DADD"), 3125u);
  EXPECT_EQ(s[0].opcode_mix.at("IMAD"), 3136u + 9375u);  // IMAD and IMAD.WIDE
}

}  // namespace
}  // namespace sassim::traces
