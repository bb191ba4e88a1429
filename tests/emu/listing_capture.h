// A suite kernel captured from its committed listing (kernels/sass/ARCH/KERNEL.sass) on
// the inputs its values describe, as `sassim capture` does, and its outputs checked
// against the CPU reference: shared by the capture tests.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/suite.h"
#include "tests/support/scratch_dir.h"
#include "traces/emu/suite/suite_io.h"

namespace sassim::emu {

struct Captured {
  CaptureResult result;
  SuiteCheck check;
  std::filesystem::path folder;  // the trace, when one was written
};

inline std::filesystem::path listing_path(const std::string& arch, const std::string& kernel) {
  return std::filesystem::path(SASSIM_SOURCE_DIR) / "kernels/sass" / arch / (kernel + ".sass");
}

// With a non-empty `trace_prefix`, writes the trace to a fresh scratch folder named
// from it, the architecture and the kernel.
inline Captured capture_listing(const std::string& arch, const std::string& kernel,
                                const std::vector<std::string_view>& values,
                                const std::string& trace_prefix = "") {
  const std::filesystem::path path = listing_path(arch, kernel);
  const traces::sass::Listing listing = traces::sass::read_listing(path);
  const kernels::Launch launch = kernels::describe_launch(kernel, values);
  DeviceBuffers buffers(launch);
  fill_suite_inputs(launch, values, buffers);
  CaptureOptions options;
  options.sm_version = listing_sm_version(listing, path);
  options.const_bank2 = read_const_bank2(path);
  Captured c;
  if (!trace_prefix.empty()) {
    c.folder = test_support::scratch_path(trace_prefix + arch + "_" + kernel);
    std::filesystem::remove_all(c.folder);
    options.trace_folder = c.folder;
  }
  c.result = capture(listing, launch, buffers, options);
  c.check = check_suite_outputs(launch, values, buffers);
  return c;
}

}  // namespace sassim::emu
