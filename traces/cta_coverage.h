#pragma once
// Which CTAs of a kernel's grid its trace has held so far: each CTA once, and every CTA
// of the grid by the end of the file. One bit per CTA of the grid (at most
// kMaxGridCtas, traces/kernel_header.h: 16 MiB).
#include <cstdint>
#include <string>
#include <vector>

#include "traces/kernel_trace.h"

namespace sassim::traces {

class CtaCoverage {
 public:
  explicit CtaCoverage(const Dim3& grid);

  // Records CTA `id` (inside the grid); false when it was recorded before.
  bool add(const Dim3& id);
  std::uint64_t seen() const { return seen_; }
  bool complete() const { return seen_ == grid_.count(); }
  // "the grid (4,1,1) has 4 CTAs, the trace 2: CTAs (2,0,0) and (3,0,0) are missing",
  // naming at most kListed missing CTAs (and how many more).
  std::string missing_message() const;

  static constexpr std::uint64_t kListed = 4;

 private:
  Dim3 grid_;
  std::vector<std::uint64_t> bits_;
  std::uint64_t seen_ = 0;
};

// "(2,0,0)", "(2,0,0) and (3,0,0)", "(2,0,0), (3,0,0), ... and 7 more": `total` items of
// which `shown` are given.
std::string listed(const std::vector<std::string>& shown, std::uint64_t total);

}  // namespace sassim::traces
