// skinny_gemm_m1 .. _m8 (kernels/skinny_gemm.h): the committed sm_80 and sm_90 listings
// executed on small problems match the CPU reference bit for bit, replay with the same
// warp-instruction count and read each weight byte from DRAM once, and the check rejects a
// wrong output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "configs/config_loader.h"
#include "kernels/skinny_gemm.h"
#include "kernels/suite.h"
#include "sim/gpu.h"
#include "tests/emu/listing_capture.h"
#include "traces/accelsim_reader.h"
#include "traces/emu/suite/suite_io.h"

namespace sassim::emu {
namespace {

namespace fs = std::filesystem;
namespace sk = kernels::skinny_gemm;

class SkinnyCapture : public ::testing::TestWithParam<std::string> {};

TEST_P(SkinnyCapture, EveryVariantMatchesTheReferenceAndReplays) {
  const std::string arch = GetParam();
  const std::string preset = arch == "sm_90" ? "h100" : "a100";
  for (const std::string_view kernel : sk::kKernels) {
    // K of one step (no prefetch) and of three (the prefetch, then its end).
    for (const std::vector<std::string_view> values :
         {std::vector<std::string_view>{"32", "256"}, {"16", "768"}}) {
      SCOPED_TRACE(arch + " " + std::string(kernel) + " K " + std::string(values[1]));
      const Captured got = capture_listing(arch, std::string(kernel), values, "emu_skinny_");
      EXPECT_TRUE(got.check.ok) << got.check.message;
      EXPECT_NE(got.check.message.find(" values match"), std::string::npos) << got.check.message;
      auto workload = traces::open_accelsim_workload(got.folder);
      sim::Gpu gpu(config::load_config(preset, {}));
      const auto results = gpu.run(*workload);
      ASSERT_EQ(results.size(), 1U);
      EXPECT_EQ(results[0].warp_insts, got.result.warp_insts);
      fs::remove_all(got.folder);
    }
  }
}

TEST_P(SkinnyCapture, EachWeightByteComesFromDramOnce) {
  // 512 x 2,560 BF16 weights (2.5 MiB, well inside the L2) read by 32 CTAs: DRAM moves each
  // weight byte once, plus the 8 activation rows and the FP32 output, and nothing else.
  const std::string arch = GetParam();
  const Captured got = capture_listing(arch, "skinny_gemm_m8", {"512", "2560"}, "emu_skinny_");
  ASSERT_TRUE(got.check.ok) << got.check.message;
  auto workload = traces::open_accelsim_workload(got.folder);
  sim::Gpu gpu(config::load_config(arch == "sm_90" ? "h100" : "a100", {}));
  const auto results = gpu.run(*workload);
  ASSERT_EQ(results.size(), 1U);
  const double weights = 512.0 * 2560 * 2, rest = 8.0 * 2560 * 2 + 8.0 * 512 * 4;
  EXPECT_GE(results[0].dram_bytes, weights);
  EXPECT_LE(results[0].dram_bytes, 1.02 * (weights + rest));
  fs::remove_all(got.folder);
}

TEST(SkinnyCaptureChecks, RejectAWrongOutput) {
  const std::vector<std::string_view> values = {"16", "256"};
  const kernels::Launch launch = kernels::describe_launch("skinny_gemm_m2", values);
  DeviceBuffers buffers(launch);
  fill_suite_inputs(launch, values, buffers);
  EXPECT_FALSE(check_suite_outputs(launch, values, buffers).ok);  // nothing written
  const sk::Problem p = sk::parse_problem("skinny_gemm_m2", values);
  std::vector<uint16_t> a(size_t{p.m} * p.k), w(size_t{p.n} * p.k);
  std::memcpy(a.data(), buffers.arg(0).data(), a.size() * 2);
  std::memcpy(w.data(), buffers.arg(1).data(), w.size() * 2);
  std::vector<float> c(size_t{p.m} * p.n);
  sk::reference(p, a, w, c);
  std::memcpy(buffers.arg(2).data(), c.data(), c.size() * 4);
  EXPECT_TRUE(check_suite_outputs(launch, values, buffers).ok);
  c[17] = std::nextafter(c[17], 1e9F);
  std::memcpy(buffers.arg(2).data(), c.data(), c.size() * 4);
  EXPECT_FALSE(check_suite_outputs(launch, values, buffers).ok);
}

INSTANTIATE_TEST_SUITE_P(Archs, SkinnyCapture, ::testing::Values("sm_80", "sm_90"));

}  // namespace
}  // namespace sassim::emu
