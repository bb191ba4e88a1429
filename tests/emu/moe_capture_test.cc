// The mixture-of-experts kernels (kernels/moe_routing.h, moe_gather.h, moe_grouped_gemm.h):
// the committed sm_80 and sm_90 listings executed on small problems match the CPU
// references bit for bit (k = 1, k = experts, more tokens than one CTA's threads, logits
// rows wider than the experts), a trace of the grouped GEMM replays with the same
// warp-instruction count, and the checks reject a wrong output.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "configs/config_loader.h"
#include "kernels/moe_grouped_gemm.h"
#include "kernels/moe_routing.h"
#include "kernels/suite.h"
#include "sim/gpu.h"
#include "tests/emu/listing_capture.h"
#include "traces/accelsim_reader.h"
#include "traces/emu/suite/suite_io.h"

namespace sassim::emu {
namespace {

namespace fs = std::filesystem;

class MoeCapture : public ::testing::TestWithParam<std::string> {};

void expect_match(const std::string& arch, const std::string& kernel,
                  const std::vector<std::string_view>& values) {
  std::string what = arch + " " + kernel;
  for (const std::string_view v : values) what += " " + std::string(v);
  SCOPED_TRACE(what);
  const Captured got = capture_listing(arch, kernel, values);
  EXPECT_TRUE(got.check.ok) << got.check.message;
  EXPECT_NE(got.check.message.find(" values match"), std::string::npos) << got.check.message;
  EXPECT_GT(got.result.warp_insts, 0U);
}

TEST_P(MoeCapture, RoutingMatchesTheReference) {
  const std::string arch = GetParam();
  // 300 tokens: three CTAs of moe_topk_softmax, three pairs per thread in moe_align.
  expect_match(arch, "moe_topk_softmax", {"300", "8", "2", "16"});
  expect_match(arch, "moe_topk_softmax", {"40", "6", "1"});
  expect_match(arch, "moe_topk_softmax", {"40", "6", "6"});
  expect_match(arch, "moe_align", {"300", "8", "2"});
  expect_match(arch, "moe_align", {"40", "6", "6"});
  expect_match(arch, "moe_align", {"3", "64", "1"});  // most experts without tokens
  // Experts 2-4 of 8 kept (an expert-parallel rank's range): the others' pairs skipped.
  expect_match(arch, "moe_align", {"300", "8", "2", "2", "3"});
  expect_match(arch, "moe_align", {"40", "6", "6", "5", "1"});
}

TEST_P(MoeCapture, GathersMatchTheReference) {
  const std::string arch = GetParam();
  expect_match(arch, "moe_permute", {"24", "4", "2", "1032"});  // 129 chunks: a second pass
  expect_match(arch, "moe_unpermute", {"24", "4", "2", "1032"});
  expect_match(arch, "moe_unpermute", {"5", "4", "4", "64"});
}

TEST_P(MoeCapture, GroupedGemmMatchesTheReferenceAndReplays) {
  const std::string arch = GetParam();
  expect_match(arch, "moe_grouped_gemm", {"16", "4", "1", "64", "32"});  // one K step
  const Captured got =
      capture_listing(arch, "moe_grouped_gemm", {"40", "4", "2", "128", "96"}, "emu_moe_");
  EXPECT_TRUE(got.check.ok) << got.check.message;
  auto workload = traces::open_accelsim_workload(got.folder);
  sim::Gpu gpu(config::load_config(arch == "sm_90" ? "h100" : "a100", {}));
  const auto results = gpu.run(*workload);
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].warp_insts, got.result.warp_insts);
  fs::remove_all(got.folder);
}

TEST(MoeCaptureChecks, RejectAWrongOutput) {
  const std::vector<std::string_view> values = {"20", "4", "2"};
  const kernels::Launch launch = kernels::describe_launch("moe_align", values);
  DeviceBuffers buffers(launch);
  fill_suite_inputs(launch, values, buffers);
  EXPECT_FALSE(check_suite_outputs(launch, values, buffers).ok);  // nothing written
  const kernels::moe::Routing r = kernels::moe::parse_routing(values, "moe_align");
  std::vector<int32_t> ids(r.pairs());
  std::memcpy(ids.data(), buffers.arg(0).data(), ids.size() * 4);
  const kernels::moe::Alignment a = kernels::moe::align_reference(r, ids);
  std::memcpy(buffers.arg(1).data(), a.sorted_ids.data(), a.sorted_ids.size() * 4);
  std::memcpy(buffers.arg(2).data(), a.tile_experts.data(), a.tile_experts.size() * 4);
  std::memcpy(buffers.arg(3).data(), a.pair_rows.data(), a.pair_rows.size() * 4);
  std::memcpy(buffers.arg(4).data(), &a.total, 4);
  EXPECT_TRUE(check_suite_outputs(launch, values, buffers).ok);
  std::swap(buffers.arg(1)[0], buffers.arg(1)[4]);  // two rows of one expert swapped
  EXPECT_FALSE(check_suite_outputs(launch, values, buffers).ok);
}

INSTANTIATE_TEST_SUITE_P(Archs, MoeCapture, ::testing::Values("sm_80", "sm_90"));

}  // namespace
}  // namespace sassim::emu
