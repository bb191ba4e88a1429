#pragma once
// Pairs simulated kernel launches with measured ones: the k-th launch of a kernel in the
// simulation matches the k-th launch of the same kernel in the hardware data. Names are
// compared in their full demangled form (hw_names all carry signatures) or, when some
// hardware name is a bare function name, by that base name on both sides.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "correlate/hw_measurement.h"

namespace sassim::correlate {

// One simulated kernel launch.
struct SimKernel {
  std::string name;      // as the trace gives it (mangled)
  std::uint32_t id = 0;  // kernel id from the trace
  double cycles = 0;
  std::string file;  // results file it came from
};

enum class NameLevel { kFull, kBase };

struct MatchedKernel {
  SimKernel sim;
  HwKernel hw;
  std::string key;          // the compared name
  std::size_t ordinal = 0;  // 0-based launch number among launches with this key
};

struct UnmatchedSim {
  SimKernel sim;
  std::size_t ordinal = 0;
  std::string reason;
};

struct UnmatchedHw {
  HwKernel hw;
  std::size_t ordinal = 0;
  std::string reason;
};

struct MatchResult {
  NameLevel level = NameLevel::kFull;
  std::vector<MatchedKernel> matched;  // in simulated launch order
  std::vector<UnmatchedSim> unmatched_sim;
  std::vector<UnmatchedHw> unmatched_hw;
  std::vector<std::string> notes;  // e.g. base names shared by several distinct kernels
};

MatchResult match_kernels(const std::vector<SimKernel>& sim, const std::vector<HwKernel>& hw);

}  // namespace sassim::correlate
