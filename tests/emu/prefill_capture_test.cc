// prefill_attention (kernels/prefill_attention.h): its committed sm_80 and sm_90 listings
// executed on small problems match the CPU reference (causal and not, grouped-query
// heads of 1, 2 and 4 per KV head, several sequences), the traces replay with the same
// warp-instruction count, the causal mask halves the work, and the check rejects wrong
// outputs.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "configs/config_loader.h"
#include "kernels/prefill_attention.h"
#include "kernels/suite.h"
#include "kernels/values.h"
#include "sim/gpu.h"
#include "tests/emu/listing_capture.h"
#include "traces/accelsim_reader.h"
#include "traces/emu/suite/suite_io.h"

namespace sassim::emu {
namespace {

namespace fs = std::filesystem;
namespace pa = kernels::prefill_attention;

class PrefillCapture : public ::testing::TestWithParam<std::string> {};

TEST_P(PrefillCapture, MatchesTheReferenceAndReplays) {
  const std::string arch = GetParam();
  const std::string preset = arch == "sm_90" ? "h100" : "a100";
  for (const std::vector<std::string_view> values :
       {std::vector<std::string_view>{"2", "192", "4", "2", "1"},  // 2 per KV head, 2 sequences
        {"1", "256", "8", "2", "1"},     // 4 per KV head (a division by 4)
        {"1", "128", "4", "4", "0"}}) {  // 1 per KV head, no mask
    SCOPED_TRACE(arch + " " + std::string(values[1]) + " " + std::string(values[2]));
    const Captured got = capture_listing(arch, "prefill_attention", values, "emu_prefill_");
    EXPECT_TRUE(got.check.ok) << got.check.message;
    EXPECT_NE(got.check.message.find(" values match"), std::string::npos) << got.check.message;
    EXPECT_EQ(got.result.trace_lines, got.result.warp_insts);
    auto workload = traces::open_accelsim_workload(got.folder);
    sim::Gpu gpu(config::load_config(preset, {}));
    const auto results = gpu.run(*workload);
    ASSERT_EQ(results.size(), 1U);
    EXPECT_EQ(results[0].warp_insts, got.result.warp_insts);
    fs::remove_all(got.folder);
  }
}

TEST_P(PrefillCapture, TheMaskSkipsTheBlocksAboveTheDiagonal) {
  // 8 query blocks: without the mask each CTA walks 8 key blocks (64 in all), with it
  // 1 + 2 + ... + 8 = 36. The key loop is all but a fixed part of each CTA's count.
  const std::string arch = GetParam();
  const Captured full = capture_listing(arch, "prefill_attention", {"1", "512", "1", "1", "0"});
  const Captured masked = capture_listing(arch, "prefill_attention", {"1", "512", "1", "1", "1"});
  const Captured one = capture_listing(arch, "prefill_attention", {"1", "64", "1", "1", "0"});
  const Captured two = capture_listing(arch, "prefill_attention", {"1", "128", "1", "1", "0"});
  ASSERT_TRUE(full.check.ok && masked.check.ok && one.check.ok && two.check.ok);
  // two = 2 CTAs x (fixed + 2 blocks), one = fixed + 1 block (one masked block costs about as
  // much as an unmasked one).
  const int64_t per_block =
      static_cast<int64_t>(two.result.warp_insts) / 2 - static_cast<int64_t>(one.result.warp_insts);
  const int64_t fixed = static_cast<int64_t>(one.result.warp_insts) - per_block;
  ASSERT_GT(per_block, 0);
  EXPECT_EQ(static_cast<int64_t>(full.result.warp_insts), 8 * fixed + 64 * per_block);
  const double ratio = static_cast<double>(masked.result.warp_insts) / full.result.warp_insts;
  EXPECT_NEAR(ratio, (8.0 * fixed + 36.0 * per_block) / (8.0 * fixed + 64.0 * per_block), 0.02);
}

// The check fails on an output the kernel did not write, and on one value half a BF16
// unit off beyond the tolerance.
TEST(PrefillCaptureChecks, RejectWrongOutputs) {
  const std::vector<std::string_view> values = {"1", "64", "4", "2", "1"};
  const pa::Problem p = pa::parse_problem(values);
  const kernels::Launch launch = kernels::describe_launch("prefill_attention", values);
  DeviceBuffers buffers(launch);
  fill_suite_inputs(launch, values, buffers);
  EXPECT_FALSE(check_suite_outputs(launch, values, buffers).ok);
  auto bf16s = [](size_t bytes, uint64_t seed) {
    std::vector<uint16_t> v(bytes / 2);
    kernels::fill_dyadic_bf16(v, seed);
    return v;
  };
  const std::vector<float> want =
      pa::reference_blockwise(p, bf16s(buffers.arg(0).size(), 1), bf16s(buffers.arg(1).size(), 2),
                              bf16s(buffers.arg(2).size(), 3));
  std::vector<uint16_t> out(want.size());
  for (size_t i = 0; i < want.size(); ++i) out[i] = kernels::float_to_bf16(want[i]);
  std::memcpy(buffers.arg(3).data(), out.data(), out.size() * 2);
  EXPECT_TRUE(check_suite_outputs(launch, values, buffers).ok);
  // Three BF16 units up from a value near 0.25 (0.25 * 3 * 2^-8 relative).
  const size_t i = 5 * pa::kHeadDim + 7;
  out[i] = static_cast<uint16_t>(kernels::float_to_bf16(want[i]) + 3);
  std::memcpy(buffers.arg(3).data(), out.data(), out.size() * 2);
  EXPECT_FALSE(check_suite_outputs(launch, values, buffers).ok) << want[i];
}

INSTANTIATE_TEST_SUITE_P(Archs, PrefillCapture, ::testing::Values("sm_80", "sm_90"));

}  // namespace
}  // namespace sassim::emu
