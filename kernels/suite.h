// The suite list, kernels/suite.txt: one kernel launch per line,
//   NAME BINARY KERNEL [VALUE...]
// NAME names the run (traces and measurements are filed under it), BINARY is the
// program built by the `kernels` target (relative to the build folder), KERNEL the
// extern "C" kernel it launches and VALUE... its problem sizes. scripts/capture-hw.sh
// reads the same file as NAME BINARY [ARGS...] and runs BINARY ARGS; '#' starts a
// comment.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels {

struct SuiteEntry {
  std::string name;
  std::string binary;
  std::string kernel;
  std::vector<std::string> values;
  int line = 0;
};

// Throws std::invalid_argument "ORIGIN:LINE: ..." on a malformed line.
std::vector<SuiteEntry> parse_suite(std::string_view text, std::string_view origin);
// Throws std::runtime_error when the file cannot be read.
std::vector<SuiteEntry> read_suite(const std::filesystem::path& path);

// Every extern "C" kernel of the suite's sources.
std::span<const std::string_view> suite_kernels();

// The launch of `kernel` for the problem its values describe (as the suite program
// that runs it would launch it). Throws std::invalid_argument for an unknown kernel or
// bad values.
Launch describe_launch(std::string_view kernel, ParamValues values);
Launch describe_launch(const SuiteEntry& entry);

}  // namespace sassim::kernels
