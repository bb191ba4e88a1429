// The microbenchmarks' suite list (kernels/ubench/suite.txt), launches and host inputs.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/suite.h"
#include "kernels/ubench/ubench.h"

namespace sassim::kernels {
namespace {

using Values = std::vector<std::string_view>;

const std::filesystem::path kUbenchSuite =
    std::filesystem::path(SASSIM_SOURCE_DIR) / "kernels" / "ubench" / "suite.txt";

TEST(UbenchTest, EveryLineDescribesALaunchAndEveryKernelRuns) {
  const auto entries = read_suite(kUbenchSuite);
  // The record's 17 runs, 4 of them once per GPU, and the H200's 8 variants.
  ASSERT_EQ(entries.size(), 33U);
  std::set<std::string> names, kernels;
  for (const SuiteEntry& entry : entries) {
    SCOPED_TRACE("ubench/suite.txt:" + std::to_string(entry.line) + " " + entry.name);
    EXPECT_TRUE(names.insert(entry.name).second) << "duplicate name";
    EXPECT_EQ(entry.binary.rfind("kernels/ubench/", 0), 0U);
    EXPECT_TRUE(ubench::is_kernel(entry.kernel));
    // Through the suite's describe_launch, as the SASS executor calls it.
    const Launch launch = describe_launch(entry);
    EXPECT_EQ(launch.kernel, entry.kernel);
    EXPECT_LE(launch.block.count(), 1024U);
    for (const Arg& arg : launch.arguments()) EXPECT_GT(arg.size_bytes, 0U) << arg.name;
    kernels.insert(entry.kernel);
  }
  EXPECT_EQ(kernels.size(), ubench::kernels().size());
}

TEST(UbenchTest, LaunchesFollowTheRecord) {
  const Launch mem_bw = describe_launch("ubench_mem_bw", Values{"108", "20971520"});
  EXPECT_EQ(mem_bw.grid.x, 108U);
  EXPECT_EQ(mem_bw.block.x, 1024U);
  ASSERT_EQ(mem_bw.arguments().size(), 8U);
  EXPECT_EQ(mem_bw.arguments()[0].size_bytes, 20971520U * 4);
  EXPECT_EQ(mem_bw.arguments()[2].access, Access::kWrite);  // c
  EXPECT_EQ(mem_bw.arguments()[6].value_bits, 20971520U);
  EXPECT_EQ(mem_bw.arguments()[7].size_bytes, 108U * 1024 * 16);  // clocks

  // Two CTAs per SM, threads + 512 x 32 elements (--fast), both values launch arguments.
  const Launch l2 = describe_launch("ubench_l2_bw_64f", Values{"264", "512"});
  EXPECT_EQ(l2.grid.x, 264U);
  EXPECT_EQ(l2.arguments()[0].size_bytes, (264U * 1024 + 512 * 32) * 8);
  EXPECT_EQ(l2.arguments()[1].value_bits, 264U * 1024 + 512 * 32);
  EXPECT_EQ(l2.arguments()[2].value_bits, 512U);
  const Launch l2_sm = describe_launch("ubench_l2_bw_64f_sm", Values{"80"});
  EXPECT_EQ(l2_sm.arguments()[0].size_bytes, (80U * 1024 + 2048 * 32) * 8);

  // mem_lat: one warp links the ring; the _cta variant a grid of 1024-thread CTAs.
  const Launch mem_lat = describe_launch("ubench_mem_lat", Values{"15728640"});
  EXPECT_EQ(mem_lat.threads(), 32U);
  EXPECT_EQ(mem_lat.arguments()[0].size_bytes, 15728640U * 8);
  EXPECT_EQ(describe_launch("ubench_mem_lat_cta", Values{"2", "65536"}).threads(), 2048U);

  // The transposes: (out, in, width, height) as the measured program's kernels.
  for (const char* kernel :
       {"ubench_shared_bank_conflicts", "ubench_shared_bank_conflicts_padded"}) {
    const Launch t = describe_launch(kernel, Values{});
    EXPECT_EQ(t.grid.x, 16U) << kernel;
    EXPECT_EQ(t.grid.y, 16U) << kernel;
    EXPECT_EQ(t.block.y, 8U) << kernel;
    EXPECT_EQ(t.arguments()[1].name, "in") << kernel;
    EXPECT_EQ(t.arguments()[3].value_bits, 512U) << kernel;
  }

  EXPECT_EQ(describe_launch("ubench_shared_lat", Values{}).block.x, 1U);
  EXPECT_EQ(describe_launch("ubench_l2_lat", Values{}).threads(), 32U);  // one warp
  // l1_lat: one thread, a 64 KiB ring; l1_lat_cta: 1024 threads, 32 KiB.
  const Launch l1_lat = describe_launch("ubench_l1_lat", Values{});
  EXPECT_EQ(l1_lat.threads(), 1U);
  EXPECT_EQ(l1_lat.arguments()[0].size_bytes, 8192U * 8);
  const Launch l1_lat_cta = describe_launch("ubench_l1_lat_cta", Values{});
  EXPECT_EQ(l1_lat_cta.threads(), 1024U);
  EXPECT_EQ(l1_lat_cta.arguments()[0].size_bytes, 4096U * 8);
}

TEST(UbenchTest, BadValuesAreErrors) {
  EXPECT_THROW(describe_launch("ubench_l1_lat", Values{"1"}), std::invalid_argument);
  EXPECT_THROW(describe_launch("ubench_mem_bw", Values{"80", "10"}), std::invalid_argument);
  EXPECT_THROW(describe_launch("ubench_mem_lat_cta", Values{"1", "4"}), std::invalid_argument);
  EXPECT_THROW(describe_launch("ubench_mem_lat", Values{"1", "40000"}), std::invalid_argument);
  try {  // the chase would reach the entries the record's program links to odd bytes
    describe_launch("ubench_mem_lat", Values{"32775"});
    ADD_FAILURE() << "ENTRIES 32775 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("ENTRIES must be at least 32776"), std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(describe_launch("ubench_mem_lat", Values{"32776"}));
  EXPECT_THROW(describe_launch("ubench_l2_bw_32f", Values{"264", "512", "1"}),
               std::invalid_argument);
  EXPECT_THROW(describe_launch("ubench_nope", Values{}), std::invalid_argument);
  EXPECT_THROW(describe_launch("ubench_shared_bank_conflicts", Values{"1"}), std::invalid_argument);
}

TEST(UbenchTest, HostInputs) {
  // l1_shared_bw: the record's program copies the first 1024 entries of its ring only;
  // the _ring variant all of it.
  const Launch l1_shared = describe_launch("ubench_l1_shared_bw", Values{});
  const std::vector<uint8_t> ring = ubench::initial_contents(l1_shared, 0);
  ASSERT_EQ(ring.size(), 4096U);  // the first 1024 of its 16384 entries
  EXPECT_EQ(l1_shared.arguments()[0].size_bytes, 16384U * 4);
  uint32_t entry = 0;
  std::memcpy(&entry, ring.data() + 4 * 1023, 4);
  EXPECT_EQ(entry, (1023U + 1024 + 1) % 16384);
  EXPECT_TRUE(ubench::initial_contents(l1_shared, 1).empty());  // stride: a value
  EXPECT_EQ(l1_shared.arguments()[1].value_bits, 1024U);
  const Launch l1_ring = describe_launch("ubench_l1_shared_bw_ring", Values{});
  const std::vector<uint8_t> whole = ubench::initial_contents(l1_ring, 0);
  ASSERT_EQ(whole.size(), 16384U * 4);
  std::memcpy(&entry, whole.data() + 4 * 16383, 4);
  EXPECT_EQ(entry, (16383U + 1024 + 1) % 16384);
  EXPECT_TRUE(ubench::initial_contents(l1_shared, 2).empty());  // clocks: written

  // l1_bw_32f_unroll_large: 32768 floats written and copied of the span the loop reads.
  const Launch large = describe_launch("ubench_l1_bw_32f_unroll_large", Values{});
  const std::vector<uint8_t> floats = ubench::initial_contents(large, 0);
  ASSERT_EQ(floats.size(), 32768U * 4);
  EXPECT_EQ(large.arguments()[0].size_bytes, (1024U + 4096 * 32) * 4);
  float f = 0;
  std::memcpy(&f, floats.data() + 4 * 32767, 4);
  EXPECT_EQ(f, 32767.0F);

  const Launch bw64 = describe_launch("ubench_l1_bw_64f", Values{});
  const std::vector<uint8_t> array = ubench::initial_contents(bw64, 0);
  ASSERT_EQ(array.size(), (ubench::kL1BwDoubles + 32) * 8U);
  double value = 0;
  std::memcpy(&value, array.data() + 8 * 5, 8);
  EXPECT_EQ(value, 5.0);

  // Address rings are built by the kernels themselves.
  EXPECT_TRUE(ubench::initial_contents(describe_launch("ubench_l2_lat", Values{}), 0).empty());
}

TEST(UbenchTest, TransposeReference) {
  std::vector<float> in(ubench::kBankMatrix * ubench::kBankMatrix), out(in.size());
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  ubench::transpose_reference(in, out);
  EXPECT_EQ(out[1], in[512]);
  EXPECT_EQ(out[3 * 512 + 7], in[7 * 512 + 3]);
}

}  // namespace
}  // namespace sassim::kernels
