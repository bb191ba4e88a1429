// A capture written as zstd and as text: kernelslist.g names each file, the zstd file
// decompresses to the same text, and both replay to identical cycles and counters.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "configs/config_loader.h"
#include "kernels/suite.h"
#include "sim/gpu.h"
#include "tests/support/scratch_dir.h"
#include "traces/accelsim_reader.h"
#include "traces/emu/capture.h"
#include "traces/emu/suite/suite_io.h"
#include "traces/line_source.h"

namespace sassim::emu {
namespace {

namespace fs = std::filesystem;

void capture_sgemm(const fs::path& folder, traces::Compression compression) {
  const fs::path path = fs::path(SASSIM_SOURCE_DIR) / "kernels/sass/sm_80/sgemm_tiled.sass";
  const std::vector<std::string_view> values = {"64", "64", "32"};
  const traces::sass::Listing listing = traces::sass::read_listing(path);
  const kernels::Launch launch = kernels::describe_launch("sgemm_tiled", values);
  DeviceBuffers buffers(launch);
  fill_suite_inputs(launch, values, buffers);
  CaptureOptions options;
  options.trace_folder = folder;
  options.compression = compression;
  options.sm_version = 80;
  capture(listing, launch, buffers, options);
}

std::vector<std::string> lines_of(const fs::path& file) {
  auto source = traces::open_line_source(file);
  std::vector<std::string> lines;
  for (std::string_view line; source->next(line);) lines.emplace_back(line);
  return lines;
}

std::string kernels_list(const fs::path& folder) {
  std::ifstream in(folder / "kernelslist.g");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(CompressedCapture, ZstdAndPlainTracesReplayIdentically) {
  test_support::ScratchDir dir("compressed_capture");
  const fs::path plain = dir.path() / "plain";
  const fs::path zstd = dir.path() / "zstd";
  capture_sgemm(plain, traces::Compression::kNone);
  capture_sgemm(zstd, traces::Compression::kZstd);
  EXPECT_EQ(kernels_list(plain), "kernel-1.traceg\n");
  EXPECT_EQ(kernels_list(zstd), "kernel-1.traceg.zst\n");
  EXPECT_FALSE(fs::exists(zstd / "kernel-1.traceg"));

  const std::vector<std::string> text = lines_of(plain / "kernel-1.traceg");
  EXPECT_GT(text.size(), 1000U);
  EXPECT_EQ(lines_of(zstd / "kernel-1.traceg.zst"), text);
  EXPECT_LT(fs::file_size(zstd / "kernel-1.traceg.zst") * 5,
            fs::file_size(plain / "kernel-1.traceg"));

  std::vector<std::vector<sim::KernelResult>> runs;
  for (const fs::path& folder : {plain, zstd}) {
    auto workload = traces::open_accelsim_workload(folder);
    sim::Gpu gpu(config::load_config("a100", {}));
    runs.push_back(gpu.run(*workload));
  }
  ASSERT_EQ(runs[0].size(), 1U);
  ASSERT_EQ(runs[1].size(), 1U);
  EXPECT_EQ(runs[0][0].cycles, runs[1][0].cycles);
  EXPECT_EQ(runs[0][0].warp_insts, runs[1][0].warp_insts);
  EXPECT_TRUE(runs[0][0].stats == runs[1][0].stats);
  EXPECT_EQ(runs[1][0].info.source, (zstd / "kernel-1.traceg.zst").string());
}

}  // namespace
}  // namespace sassim::emu
