// The decode-path kernels of an LLM decoder layer (kernels/rmsnorm.h, swiglu.h, rope.h,
// kv_append.h, decode_attention.h, decode_attention_tc.h): their committed sm_80 and sm_90 listings
// executed on small problems match the CPU references, the traces replay in the timing model with
// the same warp-instruction count, and the counts follow the kernels' loops.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "configs/config_loader.h"
#include "kernels/decode_attention.h"
#include "kernels/suite.h"
#include "kernels/values.h"
#include "sim/gpu.h"
#include "tests/emu/listing_capture.h"
#include "tests/support/scratch_dir.h"
#include "traces/accelsim_reader.h"
#include "traces/emu/suite/suite_io.h"

namespace sassim::emu {
namespace {

namespace fs = std::filesystem;

Captured run(const std::string& arch, const std::string& kernel,
             const std::vector<std::string_view>& values, bool trace) {
  return capture_listing(arch, kernel, values, trace ? "emu_llm_" : "");
}

class LlmCapture : public ::testing::TestWithParam<std::string> {};

TEST_P(LlmCapture, KernelsMatchTheirReferencesAndReplay) {
  const std::string arch = GetParam();
  const std::string preset = arch == "sm_90" ? "h100" : "a100";
  struct Case {
    std::string kernel;
    std::vector<std::string_view> values;
  };
  const std::vector<Case> cases = {
      {"rmsnorm", {"3", "4096"}},  // two chunks per thread
      {"rmsnorm", {"2", "1000"}},  // threads past the row's 125 chunks
      {"swiglu", {"3", "2056"}},   // a second CTA column with one live warp
      {"rope", {"5", "8", "2", "64"}},
      {"rope", {"2", "32", "8", "8192"}},  // 320 chunks: three rounds of 128 threads
      {"kv_append", {"9", "8", "4"}},      // token 7 is padding
      // Contexts 1100, 987 and 874: the third split of sequences 1 and 2 is empty.
      {"decode_attention", {"3", "1100", "2"}},
      {"decode_attention_combine", {"3", "1100", "2"}},
      // Contexts 600 and 513: sequence 1's second split holds one token.
      {"decode_attention", {"2", "600", "1"}},
      {"decode_attention_tc", {"3", "1100", "2"}},
      {"decode_attention_tc", {"2", "600", "1"}},
      // A column slice (ldc 2064) with a second CTA column of one live warp.
      {"cast_bf16", {"3", "2056", "2064"}},
      {"residual_add", {"3", "2056"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(arch + " " + c.kernel + " " + std::string(c.values[0]));
    const Captured got = run(arch, c.kernel, c.values, true);
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

TEST_P(LlmCapture, WorkGrowsWithTheProblem) {
  const std::string arch = GetParam();
  // rmsnorm: every row runs the same instructions, so rows scale the count exactly.
  const Captured one = run(arch, "rmsnorm", {"1", "2048"}, false);
  const Captured four = run(arch, "rmsnorm", {"4", "2048"}, false);
  EXPECT_TRUE(one.check.ok && four.check.ok);
  EXPECT_EQ(four.result.warp_insts, 4 * one.result.warp_insts);
  // kv_append: a padding token's CTA exits early; 8 tokens hold one.
  const Captured seven = run(arch, "kv_append", {"7", "8", "4"}, false);
  const Captured eight = run(arch, "kv_append", {"8", "8", "4"}, false);
  EXPECT_TRUE(seven.check.ok && eight.check.ok);
  const uint64_t per_token = seven.result.warp_insts / 7;
  EXPECT_EQ(seven.result.warp_insts, 7 * per_token);
  EXPECT_LT(eight.result.warp_insts - seven.result.warp_insts, per_token / 2);
}

// The checks fail on outputs the kernels did not write (all zero), and on a decode
// partial that is off by the weight of one token out of a split of 512.
TEST(LlmCaptureChecks, RejectWrongOutputs) {
  for (const auto& [kernel, values] :
       std::vector<std::pair<std::string, std::vector<std::string_view>>>{
           {"rmsnorm", {"2", "64"}},
           {"swiglu", {"2", "64"}},
           {"rope", {"2", "4", "2", "16"}},
           {"kv_append", {"4", "2", "1"}},
           {"decode_attention", {"1", "600", "1"}},
           {"decode_attention_combine", {"1", "600", "1"}},
           {"decode_attention_tc", {"1", "600", "1"}},
           {"cast_bf16", {"2", "64", "68"}},
           {"residual_add", {"2", "64"}}}) {
    SCOPED_TRACE(kernel);
    const kernels::Launch launch = kernels::describe_launch(kernel, values);
    DeviceBuffers buffers(launch);
    fill_suite_inputs(launch, values, buffers);
    // (rope works in place: its untouched inputs are the wrong output.)
    EXPECT_FALSE(check_suite_outputs(launch, values, buffers).ok);
  }
  // decode_attention: the reference partials pass; one value 0.2% off does not.
  const std::vector<std::string_view> values = {"1", "600", "1"};
  const kernels::decode_attention::Problem p = kernels::decode_attention::parse_problem(values);
  const kernels::Launch launch = kernels::describe_launch("decode_attention", values);
  DeviceBuffers buffers(launch);
  fill_suite_inputs(launch, values, buffers);
  auto bf16s = [](size_t bytes, uint64_t seed) {
    std::vector<uint16_t> v(bytes / 2);
    kernels::fill_dyadic_bf16(v, seed);
    return v;
  };
  const auto want = kernels::decode_attention::reference_partials(
      p, bf16s(buffers.arg(0).size(), 1), bf16s(buffers.arg(1).size(), 2),
      bf16s(buffers.arg(2).size(), 3));
  std::memcpy(buffers.arg(5).data(), want.o.data(), want.o.size() * 4);
  std::memcpy(buffers.arg(6).data(), want.lse.data(), want.lse.size() * 4);
  EXPECT_TRUE(check_suite_outputs(launch, values, buffers).ok);
  const float off = want.o[5 * 128 + 7] * 1.002F;
  std::memcpy(buffers.arg(5).data() + (5 * 128 + 7) * 4, &off, 4);
  EXPECT_FALSE(check_suite_outputs(launch, values, buffers).ok);
}

INSTANTIATE_TEST_SUITE_P(Archs, LlmCapture, ::testing::Values("sm_80", "sm_90"));

}  // namespace
}  // namespace sassim::emu
