// Tensor-core reporting on a real trace: the bundled A100 FlashInfer prefill kernel
// (traces/reference/a100-flashinfer) on the a100 preset reports busy tensor pipes and
// exactly the FLOPs its HMMA instructions imply, counted here from the trace text.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

#include <H5Cpp.h>

#include "configs/config_loader.h"
#include "e2e_fixtures.h"
#include "sim/hdf5_writer.h"
#include "tests/support/scratch_dir.h"
#include "traces/line_source.h"

namespace sassim::e2e {
namespace {

// 2 x M x N x K per warp of each HMMA.16816 (m16n8k16) line, scaled by its active lanes.
double hmma_flops_in(const std::filesystem::path& kernel_file, std::uint64_t& instructions) {
  auto source = traces::open_line_source(kernel_file);
  double flops = 0;
  std::string_view line;
  while (source->next(line)) {
    if (line.find(" HMMA.") == std::string_view::npos) continue;
    std::istringstream fields{std::string(line)};
    std::string pc, mask, dst_count, dst, opcode;
    fields >> pc >> mask >> dst_count >> dst >> opcode;
    EXPECT_TRUE(opcode.starts_with("HMMA.16816.")) << line;
    const auto lanes = std::popcount(static_cast<std::uint32_t>(std::stoul(mask, nullptr, 16)));
    flops += 2.0 * 16 * 8 * 16 * lanes / 32;
    ++instructions;
  }
  return flops;
}

TEST(TensorReport, FlashInferPrefillOnA100) {
  const ReferenceTrace& t = reference_traces()[5];
  ASSERT_EQ(t.name, "a100_flashinfer_prefill");
  std::uint64_t hmma = 0;
  const double expected = hmma_flops_in(repo_path(t.path) / "kernel-1.traceg.xz", hmma);
  EXPECT_EQ(hmma, 2176U);  // 1024 HMMA.16816.F16 + 1152 HMMA.16816.F32, all 32 lanes
  const auto results = replay(t);
  ASSERT_EQ(results.size(), 1U);
  const sim::KernelResult& r = results[0];
  EXPECT_DOUBLE_EQ(r.stats.sum("gpu.sm[", ".flops.tensor"), expected);
  EXPECT_DOUBLE_EQ(r.stats.sum("gpu.sm[", ".tensor_flops.f16"), expected);
  EXPECT_GT(r.tensor_utilisation, 0.0);
  EXPECT_LT(r.tensor_utilisation, 1.0);
  // 2176 instructions x 8 cycles (the preset's HMMA.16816 interval) over 108 x 4 sub-cores.
  EXPECT_DOUBLE_EQ(r.tensor_utilisation, 2176.0 * 8 / (static_cast<double>(r.cycles) * 108 * 4));
  EXPECT_DOUBLE_EQ(r.tensor_tflops, expected / r.seconds / 1e12);
  // The results file carries both per kernel.
  const config::GpuConfig cfg = config::load_config(t.preset);
  const auto file = test_support::scratch_path("tensor_report_test").replace_extension(".h5");
  sim::write_hdf5(file, {t.path, t.preset, config::to_text(cfg), cfg.num_sms()}, results);
  struct Row {
    double utilisation, tflops;
  };
  H5::CompType type(sizeof(Row));
  type.insertMember("tensor_utilisation", HOFFSET(Row, utilisation), H5::PredType::NATIVE_DOUBLE);
  type.insertMember("tensor_tflops", HOFFSET(Row, tflops), H5::PredType::NATIVE_DOUBLE);
  Row row{};
  H5::H5File(file.string(), H5F_ACC_RDONLY).openDataSet("kernels").read(&row, type);
  EXPECT_DOUBLE_EQ(row.utilisation, r.tensor_utilisation);
  EXPECT_DOUBLE_EQ(row.tflops, r.tensor_tflops);
  std::filesystem::remove(file);
  std::printf("a100 FlashInfer prefill: %llu cycles, tensor pipes %.2f%% busy, %.2f TFLOP/s\n",
              static_cast<unsigned long long>(r.cycles), 100 * r.tensor_utilisation,
              r.tensor_tflops);
}

}  // namespace
}  // namespace sassim::e2e
