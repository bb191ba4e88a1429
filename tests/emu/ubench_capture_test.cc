// The microbenchmark kernels' committed sm_70, sm_80 and sm_90 listings captured without
// a trace: the warp instructions executed are those of docs/UBENCH.md's fingerprint
// table ("this kernel", printed by scripts/ubench-fingerprint.py; the H200 variants from
// docs/SILICON.md), and the outputs pass the check.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/suite.h"
#include "traces/emu/suite/suite_io.h"

namespace sassim::emu {
namespace {

namespace fs = std::filesystem;

struct UbenchRun {
  const char* kernel;
  const char* value;  // "" for none
  const char* arch;
  uint64_t warp_insts;  // docs/UBENCH.md, fingerprint table, "this kernel"
};

// The record's runs under 3.5 M warp instructions (kernels/ubench/suite.txt) but
// l1_bw_128 and l1_bw_32f_unroll, and two of the H200's variants (l1_lat_cta,
// l1_bw_64f_c), each on the listing of its GPU in the record: sm_70 (QV100), sm_80
// (A100), sm_90 (H100).
const UbenchRun kRuns[] = {
    {"ubench_l1_lat", "", "sm_70", 30'868},
    {"ubench_l1_lat", "", "sm_80", 30'871},
    {"ubench_l1_lat", "", "sm_90", 30'869},
    {"ubench_l1_lat_cta", "", "sm_70", 30'612},
    {"ubench_l1_lat_cta", "", "sm_80", 30'548},
    {"ubench_l1_lat_cta", "", "sm_90", 30'613},
    {"ubench_l2_lat", "", "sm_70", 50'211},
    {"ubench_l2_lat", "", "sm_80", 58'401},
    {"ubench_l2_lat", "", "sm_90", 58'369},
    {"ubench_mem_lat", "1572864", "sm_70", 358'461},
    {"ubench_mem_lat", "10485760", "sm_80", 2'304'121},
    {"ubench_mem_lat", "15728640", "sm_90", 3'450'480},
    {"ubench_l1_bw_32f", "", "sm_70", 1'716'832},
    {"ubench_l1_bw_32f", "", "sm_80", 1'721'280},
    {"ubench_l1_bw_32f", "", "sm_90", 1'716'352},
    {"ubench_l1_shared_bw", "", "sm_70", 2'756'928},
    {"ubench_l1_shared_bw", "", "sm_80", 2'625'504},
    {"ubench_l1_shared_bw", "", "sm_90", 2'757'408},
    {"ubench_shared_lat", "", "sm_70", 36'981},
    {"ubench_shared_lat", "", "sm_80", 32'885},
    {"ubench_shared_lat", "", "sm_90", 36'989},
    {"ubench_l1_bw_64f", "", "sm_70", 71'360},
    {"ubench_l1_bw_64f", "", "sm_80", 71'712},
    {"ubench_l1_bw_64f", "", "sm_90", 71'168},
    {"ubench_l1_bw_64f_c", "", "sm_70", 70'848},
    {"ubench_l1_bw_64f_c", "", "sm_80", 71'008},
    {"ubench_l1_bw_64f_c", "", "sm_90", 70'624},
    {"ubench_l1_bw_32f_unroll_large", "", "sm_70", 938'432},
    {"ubench_l1_bw_32f_unroll_large", "", "sm_80", 939'456},
    {"ubench_l1_bw_32f_unroll_large", "", "sm_90", 937'568},
    {"ubench_shared_bw", "", "sm_70", 270'912},
    {"ubench_shared_bw", "", "sm_80", 139'488},
    {"ubench_shared_bw", "", "sm_90", 271'040},
    {"ubench_shared_bank_conflicts", "", "sm_70", 98'304},
    {"ubench_shared_bank_conflicts", "", "sm_80", 92'160},
    {"ubench_shared_bank_conflicts", "", "sm_90", 104'448},
    {"ubench_shared_bank_conflicts_padded", "", "sm_70", 98'304},
    {"ubench_shared_bank_conflicts_padded", "", "sm_80", 92'160},
    {"ubench_shared_bank_conflicts_padded", "", "sm_90", 104'448},
    {"ubench_max_iops_int32", "", "sm_70", 134'272},
    {"ubench_max_iops_int32", "", "sm_80", 134'176},
    {"ubench_max_iops_int32", "", "sm_90", 133'216},
};

const UbenchRun& run_of(std::string_view kernel, std::string_view arch) {
  for (const UbenchRun& r : kRuns) {
    if (r.kernel == kernel && r.arch == arch) return r;
  }
  throw std::invalid_argument("no run of " + std::string(kernel));
}

struct Captured {
  kernels::Launch launch;
  std::vector<std::string_view> values;
  std::unique_ptr<DeviceBuffers> buffers;
  CaptureResult result;
};

Captured run(const UbenchRun& r) {
  const fs::path path =
      fs::path(SASSIM_SOURCE_DIR) / "kernels/sass" / r.arch / (std::string(r.kernel) + ".sass");
  const traces::sass::Listing listing = traces::sass::read_listing(path);
  Captured c;
  if (*r.value != '\0') c.values.push_back(r.value);
  c.launch = kernels::describe_launch(r.kernel, c.values);
  c.buffers = std::make_unique<DeviceBuffers>(c.launch);
  fill_suite_inputs(c.launch, c.values, *c.buffers);
  CaptureOptions options;  // no trace folder: execute only
  options.sm_version = listing_sm_version(listing, path);
  c.result = capture(listing, c.launch, *c.buffers, options);
  return c;
}

class UbenchCapture : public ::testing::TestWithParam<UbenchRun> {};

TEST_P(UbenchCapture, CountsTheFingerprintAndPassesTheCheck) {
  const UbenchRun& r = GetParam();
  Captured c = run(r);
  EXPECT_EQ(c.result.warp_insts, r.warp_insts);
  const SuiteCheck check = check_suite_outputs(c.launch, c.values, *c.buffers);
  EXPECT_TRUE(check.ok) << check.message;
}

INSTANTIATE_TEST_SUITE_P(Runs, UbenchCapture, ::testing::ValuesIn(kRuns),
                         [](const ::testing::TestParamInfo<UbenchRun>& param) {
                           std::string name =
                               std::string(param.param.kernel).substr(7) + "_" + param.param.arch;
                           if (*param.param.value != '\0')
                             name += std::string("_") + param.param.value;
                           return name;
                         });

TEST(UbenchCheck, FailsOnAWrongSinkClocksOrTranspose) {
  {
    Captured c = run(run_of("ubench_l1_lat_cta", "sm_90"));  // thread 5's sink one entry on
    std::vector<uint8_t>& sink = c.buffers->arg(2);
    sink[5 * 8] = static_cast<uint8_t>(sink[5 * 8] + 8);
    const SuiteCheck check = check_suite_outputs(c.launch, c.values, *c.buffers);
    EXPECT_FALSE(check.ok);
    EXPECT_NE(check.message.find("thread 5 sink"), std::string::npos) << check.message;
  }
  {
    Captured c = run(run_of("ubench_max_iops_int32", "sm_90"));  // thread 3: stop = start
    std::vector<uint8_t>& clocks = c.buffers->arg(2);
    std::copy_n(clocks.begin() + 3 * 16, 8, clocks.begin() + 3 * 16 + 8);
    const SuiteCheck check = check_suite_outputs(c.launch, c.values, *c.buffers);
    EXPECT_FALSE(check.ok);
    EXPECT_NE(check.message.find("thread 3 has clocks"), std::string::npos) << check.message;
  }
  {
    Captured c = run(run_of("ubench_shared_bank_conflicts", "sm_80"));  // one element off
    c.buffers->arg(0)[4 * 513] ^= 1;
    const SuiteCheck check = check_suite_outputs(c.launch, c.values, *c.buffers);
    EXPECT_FALSE(check.ok);
    EXPECT_NE(check.message.find("out[513]"), std::string::npos) << check.message;
  }
}

}  // namespace
}  // namespace sassim::emu
