// The suite kernels' committed sm_80, sm_90 and sm_90a listings executed on small problems:
// outputs equal the CPU references, the traces replay in the timing model with the
// same warp-instruction count, and that count follows the kernels' loop structure.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "configs/config_loader.h"
#include "kernels/suite.h"
#include "sim/gpu.h"
#include "tests/emu/listing_capture.h"
#include "tests/support/scratch_dir.h"
#include "traces/accelsim_reader.h"
#include "traces/emu/suite/suite_io.h"
#include "traces/line_source.h"

namespace sassim::emu {
namespace {

namespace fs = std::filesystem;

const traces::sass::Function& function_of(const traces::sass::Listing& l, std::string_view name) {
  for (const auto& f : l.functions) {
    if (f.name == name) return f;
  }
  throw std::runtime_error("no function " + std::string(name));
}

Captured run(const std::string& arch, const std::string& kernel,
             const std::vector<std::string_view>& values, bool trace) {
  return capture_listing(arch, kernel, values, trace ? "emu_" : "");
}

// Instructions from the entry to the first unguarded EXIT, for kernels without branches.
uint64_t straight_line_length(const traces::sass::Function& f) {
  for (size_t i = 0; i < f.instructions.size(); ++i) {
    const auto& in = f.instructions[i];
    EXPECT_NE(in.opcode, "BRA") << "a branch at PC " << in.pc;
    if (in.opcode == "EXIT" && !in.guard) return i + 1;
  }
  ADD_FAILURE() << "no EXIT";
  return 0;
}

// Instructions of the loop closed by the first backward branch.
uint64_t loop_body_length(const traces::sass::Function& f) {
  std::optional<uint64_t> body;
  for (size_t i = 0; i < f.instructions.size(); ++i) {
    const auto& in = f.instructions[i];
    if (in.opcode != "BRA" || in.operands.empty()) continue;
    const uint64_t target = in.operands.back().target_pc;
    if (target < in.pc && !body) body = (in.pc - target) / 16 + 1;
  }
  EXPECT_TRUE(body.has_value()) << "no loop in " << f.name;
  return body.value_or(0);
}

class SuiteCapture : public ::testing::TestWithParam<std::string> {};

TEST_P(SuiteCapture, KernelsMatchTheirReferencesAndReplay) {
  const std::string arch = GetParam();
  const std::string preset = arch == "sm_90" ? "h100" : "a100";
  struct Case {
    std::string kernel;
    std::vector<std::string_view> values;
  };
  const std::vector<Case> cases = {
      {"vectoradd", {"2048"}},
      {"saxpy", {"2048"}},
      {"stream_copy", {"2048"}},
      {"stream_triad", {"2048"}},
      {"reduce_sum", {"16384", "8"}},
      {"transpose_naive", {"64", "96"}},
      {"transpose_shared", {"96", "64"}},
      {"transpose_padded", {"64", "64"}},
      {"chase_global", {"4096", "128", "64", "16"}},
      {"chase_shared", {"4096", "4", "128"}},
      {"sgemm_tiled", {"64", "128", "32"}},
      {"hgemm_mma", {"128", "128", "64"}},
      {"flash_attention_fwd", {"1", "128"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(arch + " " + c.kernel);
    const Captured got = run(arch, c.kernel, c.values, true);
    EXPECT_TRUE(got.check.ok) << got.check.message;
    EXPECT_EQ(got.result.trace_lines, got.result.warp_insts);
    auto workload = traces::open_accelsim_workload(got.folder);
    sim::Gpu gpu(config::load_config(preset, {}));
    const auto results = gpu.run(*workload);
    ASSERT_EQ(results.size(), 1U);
    EXPECT_EQ(results[0].warp_insts, got.result.warp_insts);
    fs::remove_all(got.folder);
  }
}

TEST_P(SuiteCapture, StraightLineKernelsRunEveryInstructionOncePerWarp) {
  const std::string arch = GetParam();
  for (std::string kernel : {"vectoradd", "saxpy", "stream_copy", "stream_triad", "transpose_naive",
                             "transpose_shared", "transpose_padded"}) {
    SCOPED_TRACE(arch + " " + kernel);
    const bool transpose = kernel.starts_with("transpose");
    const std::vector<std::string_view> values = transpose
                                                     ? std::vector<std::string_view>{"64", "128"}
                                                     : std::vector<std::string_view>{"4096"};
    const auto listing = traces::sass::read_listing(listing_path(arch, kernel));
    const uint64_t warps = transpose ? (64 / 32) * (128 / 32) * 8 : 4096 / 32;
    const Captured got = run(arch, kernel, values, false);
    EXPECT_TRUE(got.check.ok) << got.check.message;
    EXPECT_EQ(got.result.warp_insts, warps * straight_line_length(function_of(listing, kernel)));
  }
}

TEST_P(SuiteCapture, LoopsAddTheirBodyPerIteration) {
  const std::string arch = GetParam();
  {
    // reduce_sum on 4 CTAs: every thread adds 1, then 3 elements.
    const auto listing = traces::sass::read_listing(listing_path(arch, "reduce_sum"));
    const Captured one = run(arch, "reduce_sum", {"1024", "4"}, false);
    const Captured three = run(arch, "reduce_sum", {"3072", "4"}, false);
    EXPECT_TRUE(one.check.ok && three.check.ok);
    EXPECT_EQ(three.result.warp_insts - one.result.warp_insts,
              4 * 8 * 2 * loop_body_length(function_of(listing, "reduce_sum")));
  }
  {
    // sgemm_tiled 64x64: K = 48 runs the 16-deep K loop twice more than K = 16.
    const auto listing = traces::sass::read_listing(listing_path(arch, "sgemm_tiled"));
    const Captured one = run(arch, "sgemm_tiled", {"64", "64", "16"}, false);
    const Captured three = run(arch, "sgemm_tiled", {"64", "64", "48"}, false);
    EXPECT_TRUE(one.check.ok && three.check.ok);
    EXPECT_EQ(three.result.warp_insts - one.result.warp_insts,
              8 * 2 * loop_body_length(function_of(listing, "sgemm_tiled")));
  }
}

TEST(SuiteCaptureDeterminism, TwoCapturesWriteIdenticalTraces) {
  auto text = [](const fs::path& folder) {
    std::ifstream in(folder / "kernel-1.traceg.zst", std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  const Captured a = run("sm_80", "reduce_sum", {"8192", "4"}, true);
  const std::string first = text(a.folder);
  const Captured b = run("sm_80", "reduce_sum", {"8192", "4"}, true);
  EXPECT_FALSE(first.empty());
  EXPECT_EQ(first, text(b.folder));
  fs::remove_all(b.folder);
}

INSTANTIATE_TEST_SUITE_P(Archs, SuiteCapture, ::testing::Values("sm_80", "sm_90"));

// Lines of the trace whose opcode starts with `opcode`.
uint64_t count_lines(const fs::path& folder, std::string_view opcode) {
  auto in = traces::open_line_source(folder / "kernel-1.traceg.zst");
  uint64_t n = 0;
  for (std::string_view line; in->next(line);) {
    std::istringstream words{std::string(line)};
    std::string pc, mask, word;
    int dsts = 0;
    if (!(words >> pc >> mask >> dsts)) continue;
    // The opcode follows the destination registers.
    for (int k = 0; k <= dsts; ++k) words >> word;
    if (word.starts_with(opcode)) ++n;
  }
  return n;
}

TEST(HopperCapture, Bf16GemmWgmmaMatchesItsReferenceAndReplays) {
  // K = 256 fills the 4-stage ring once and refills it; K = 64 leaves three stages unused.
  for (const std::vector<std::string_view>& values :
       {std::vector<std::string_view>{"256", "128", "256"}, {"128", "128", "64"}}) {
    SCOPED_TRACE(std::string(values[0]) + " " + std::string(values[2]));
    const Captured got = run("sm_90a", "bf16_gemm_wgmma", values, true);
    EXPECT_TRUE(got.check.ok) << got.check.message;
    const uint64_t ctas = std::stoul(std::string(values[0])) / 128;
    const uint64_t stages = std::stoul(std::string(values[2])) / 64;
    // Per stage: two TMA loads; each warp waits once (no retries) and issues 8 HGMMA.
    EXPECT_EQ(count_lines(got.folder, "UTMALDG"), ctas * stages * 2);
    EXPECT_EQ(count_lines(got.folder, "SYNCS.PHASECHK"), ctas * stages * 4);
    EXPECT_EQ(count_lines(got.folder, "SYNCS.ARRIVE"), ctas * stages);
    EXPECT_EQ(count_lines(got.folder, "HGMMA"), ctas * stages * 4 * 8);
    auto workload = traces::open_accelsim_workload(got.folder);
    sim::Gpu gpu(config::load_config("h100", {}));
    const auto results = gpu.run(*workload);
    ASSERT_EQ(results.size(), 1U);
    EXPECT_EQ(results[0].warp_insts, got.result.warp_insts);
    fs::remove_all(got.folder);
  }
}

// The warp-specialised GEMMs (kernels/gemm_ws.h): `kernel` with `k_per_stage` elements
// of K a stage, its wgmma `mma` and the other wgmma opcode it must not use.
void check_ws_gemm(std::string_view kernel, uint64_t k_per_stage, std::string_view mma,
                   std::string_view other) {
  // 4 stages fill the ring once; 8 refill it; 1 uses one stage.
  const std::string k8 = std::to_string(8 * k_per_stage), k1 = std::to_string(k_per_stage);
  for (const std::vector<std::string_view>& values :
       {std::vector<std::string_view>{"256", "256", k8}, {"256", "512", k1}}) {
    SCOPED_TRACE(std::string(kernel) + " " + std::string(values[1]) + " " + std::string(values[2]));
    const Captured got = run("sm_90a", std::string(kernel), values, true);
    EXPECT_TRUE(got.check.ok) << got.check.message;
    const uint64_t ctas =
        std::stoul(std::string(values[0])) / 128 * std::stoul(std::string(values[1])) / 256;
    const uint64_t stages = std::stoul(std::string(values[2])) / k_per_stage;
    // Per stage: the loading thread's warp arrives with the bytes to expect and issues two
    // TMA loads (its A rows, and its half of B's rows multicast to both CTAs of its
    // cluster); each of the 8 computing warps waits once, issues 4 wgmma (4 k steps of 32
    // bytes over its 64 rows) and, from the second stage on, frees the stage before in
    // both CTAs (an arrive on each one's mbarrier).
    EXPECT_EQ(count_lines(got.folder, "UTMALDG"), ctas * stages * 2);
    EXPECT_EQ(count_lines(got.folder, "UTMALDG.2D.MULTICAST"), ctas * stages);
    EXPECT_EQ(count_lines(got.folder, "SYNCS.ARRIVE.TRANS64.RED.A1T0"),
              ctas * (stages - 1) * 8 * 2);
    EXPECT_EQ(count_lines(got.folder, "SYNCS.ARRIVE"), ctas * (stages + (stages - 1) * 8 * 2));
    EXPECT_EQ(count_lines(got.folder, mma), ctas * stages * 8 * 4);
    EXPECT_EQ(count_lines(got.folder, other), 0U);
    auto workload = traces::open_accelsim_workload(got.folder);
    sim::Gpu gpu(config::load_config("h100", {}));
    const auto results = gpu.run(*workload);
    ASSERT_EQ(results.size(), 1U);
    EXPECT_EQ(results[0].warp_insts, got.result.warp_insts);
    // The multicast data and the arrives between the SMs of a cluster give the same
    // result on 3 host threads as on 1.
    auto again = traces::open_accelsim_workload(got.folder);
    sim::Gpu threaded(config::load_config("h100", {}));
    threaded.set_threads(3);
    const auto on_three = threaded.run(*again);
    ASSERT_EQ(on_three.size(), 1U);
    EXPECT_EQ(on_three[0].cycles, results[0].cycles);
    EXPECT_TRUE(on_three[0].stats == results[0].stats) << "a counter differs on 3 threads";
    fs::remove_all(got.folder);
  }
}

TEST(HopperCapture, Fp8GemmWgmmaMatchesItsReferenceAndReplays) {
  check_ws_gemm("fp8_gemm_wgmma", 128, "QGMMA.64x256x32.F32.E4M3.E4M3", "HGMMA");
}

TEST(HopperCapture, Bf16GemmWsMatchesItsReferenceAndReplays) {
  check_ws_gemm("bf16_gemm_ws", 64, "HGMMA.64x256x16.F32.BF16", "QGMMA");
}

}  // namespace
}  // namespace sassim::emu
