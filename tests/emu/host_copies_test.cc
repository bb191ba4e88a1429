// The host-to-device copies a capture lists before the kernel: the microbenchmark buffers
// with initial contents (as kernels/ubench/ubench_host.cuh copies them), at their device
// addresses, and nothing for buffers the kernel builds itself or for other suite kernels.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/suite.h"
#include "traces/emu/suite/suite_io.h"

namespace sassim::emu {
namespace {

namespace fs = std::filesystem;

std::vector<HostCopy> copies_of(const char* kernel, std::vector<std::string_view> values) {
  const kernels::Launch launch = kernels::describe_launch(kernel, values);
  DeviceBuffers buffers(launch);
  return suite_host_copies(launch, buffers);
}

TEST(HostCopies, MicrobenchmarkInputsAreCopiedWhole) {
  // l1_bw_64f: the array of 8192 + 32 doubles (argument 0, the first allocation); clocks
  // and sink are outputs.
  const std::vector<HostCopy> l1 = copies_of("ubench_l1_bw_64f", {});
  ASSERT_EQ(l1.size(), 1u);
  EXPECT_EQ(l1[0].address, GlobalMemory::kBase);
  EXPECT_EQ(l1[0].bytes, (8192u + 32u) * 8u);
  // The transpose: the 512 x 512 float input (argument 1, after the output), not the output.
  const std::vector<HostCopy> t = copies_of("ubench_shared_bank_conflicts", {});
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].address, GlobalMemory::kBase + 512u * 512u * 4u);
  EXPECT_EQ(t[0].bytes, 512u * 512u * 4u);
}

TEST(HostCopies, NoneForKernelBuiltRingsOrOtherKernels) {
  EXPECT_TRUE(copies_of("ubench_l1_lat", {}).empty());  // the ring is linked on the GPU
  EXPECT_TRUE(copies_of("vectoradd", {"1024"}).empty());
}

TEST(HostCopies, KernelsListNamesThemBeforeTheKernel) {
  const fs::path listing_path =
      fs::path(SASSIM_SOURCE_DIR) / "kernels/sass/sm_80/ubench_l1_bw_64f.sass";
  const traces::sass::Listing listing = traces::sass::read_listing(listing_path);
  const kernels::Launch launch = kernels::describe_launch("ubench_l1_bw_64f", {});
  DeviceBuffers buffers(launch);
  fill_suite_inputs(launch, {}, buffers);
  const fs::path folder = fs::path(testing::TempDir()) / "host_copies_test";
  fs::remove_all(folder);
  CaptureOptions options;
  options.trace_folder = folder;
  options.sm_version = 80;
  options.host_copies = suite_host_copies(launch, buffers);
  capture(listing, launch, buffers, options);
  std::ifstream list(folder / "kernelslist.g");
  std::vector<std::string> lines;
  for (std::string line; std::getline(list, line);) lines.push_back(line);
  EXPECT_EQ(lines,
            (std::vector<std::string>{"MemcpyHtoD,0x7f0000000000,65792", "kernel-1.traceg.zst"}));
  fs::remove_all(folder);
}

}  // namespace
}  // namespace sassim::emu
