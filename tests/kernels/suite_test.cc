// kernels/suite.txt, its parser and the launch descriptions of its kernels.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "kernels/hgemm_mma.h"
#include "kernels/suite.h"
#include "kernels/vector_add.h"

namespace sassim::kernels {
namespace {

const std::filesystem::path kSuite =
    std::filesystem::path(SASSIM_SOURCE_DIR) / "kernels" / "suite.txt";

// Launch descriptions are constexpr: usable in static checks.
static_assert(vector_add::launch({.n = 1000}).grid.x == 4);
static_assert(vector_add::launch({.n = 1000}).arguments().size() == 4);
static_assert(hgemm_mma::launch({.m = 256, .n = 384, .k = 64}).grid.x == 3);

TEST(SuiteTest, EveryLineDescribesALaunchOfAKnownKernel) {
  const auto entries = read_suite(kSuite);
  ASSERT_GE(entries.size(), 16U);
  std::set<std::string> names, kernels;
  for (const SuiteEntry& entry : entries) {
    SCOPED_TRACE("suite.txt:" + std::to_string(entry.line) + " " + entry.name);
    EXPECT_TRUE(names.insert(entry.name).second) << "duplicate name";
    EXPECT_EQ(entry.binary.rfind("kernels/", 0), 0U) << "programs are built in BUILD/kernels/";
    const Launch launch = describe_launch(entry);
    EXPECT_EQ(launch.kernel, entry.kernel);
    EXPECT_GT(launch.threads(), 0U);
    EXPECT_LE(launch.block.count(), 1024U);
    EXPECT_GT(launch.arguments().size(), 0U);
    for (const Arg& arg : launch.arguments()) {
      EXPECT_FALSE(arg.name.empty());
      EXPECT_GT(arg.size_bytes, 0U) << arg.name;
    }
    kernels.insert(entry.kernel);
  }
  // Every kernel of the sources is run by some line.
  for (std::string_view kernel : suite_kernels())
    EXPECT_TRUE(kernels.contains(std::string(kernel))) << kernel;
}

TEST(SuiteTest, LaunchesOfTheDefaultProblems) {
  const auto gemm =
      describe_launch("hgemm_mma", std::vector<std::string_view>{"2048", "1024", "512"});
  EXPECT_EQ(gemm.grid.x, 8U);   // N / 128
  EXPECT_EQ(gemm.grid.y, 16U);  // M / 128
  EXPECT_EQ(gemm.block.x, 128U);
  EXPECT_EQ(gemm.dynamic_shared_bytes, 3U * 16384U);
  EXPECT_EQ(gemm.arguments()[0].size_bytes, 2048U * 512U * 2U);

  const auto wgmma = describe_launch("bf16_gemm_wgmma", std::vector<std::string_view>{});
  EXPECT_EQ(wgmma.arguments()[0].kind, ArgKind::kTensorMap);
  EXPECT_EQ(wgmma.dynamic_shared_bytes, 4U * 32768U + 1024U);

  const auto chase =
      describe_launch("chase_shared", std::vector<std::string_view>{"8192", "4", "100"});
  EXPECT_EQ(chase.dynamic_shared_bytes, 8192U);
  EXPECT_EQ(chase.block.x, 32U);
  EXPECT_EQ(chase.arguments()[2].value_bits, 100U);

  const auto saxpy = describe_launch("saxpy", std::vector<std::string_view>{"1000"});
  EXPECT_EQ(saxpy.arguments()[2].kind, ArgKind::kF32);
  EXPECT_EQ(saxpy.arguments()[2].value_bits, 0x3fc00000U);  // 1.5f
}

TEST(SuiteTest, BadValuesAndLinesAreErrors) {
  using Values = std::vector<std::string_view>;
  EXPECT_THROW(describe_launch("nope", Values{}), std::invalid_argument);
  EXPECT_THROW(describe_launch("transpose_naive", Values{"100"}), std::invalid_argument);
  EXPECT_THROW(describe_launch("vectoradd", Values{"12x"}), std::invalid_argument);
  EXPECT_THROW(describe_launch("vectoradd", Values{"0"}), std::invalid_argument);
  EXPECT_THROW(describe_launch("vectoradd", Values{"1", "2"}), std::invalid_argument);
  EXPECT_THROW(describe_launch("chase_shared", Values{"65536", "4", "10"}), std::invalid_argument);
  EXPECT_NO_THROW(describe_launch("chase_global", Values{"4096", "128", "10", "0"}));
  try {
    parse_suite("# comment\n\nok kernels/x vectoradd 10  # fine\nbroken kernels/x\n", "list.txt");
    FAIL() << "no error";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(),
                 "list.txt:4: expected NAME BINARY KERNEL [VALUE...], found 'broken kernels/x'");
  }
  const auto entries = parse_suite("a kernels/b vectoradd 10 # x\n", "t");
  ASSERT_EQ(entries.size(), 1U);
  EXPECT_EQ(entries[0].values, std::vector<std::string>{"10"});
}

}  // namespace
}  // namespace sassim::kernels
