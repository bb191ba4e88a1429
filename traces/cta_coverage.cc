#include "traces/cta_coverage.h"

#include <fmt/format.h>

#include <bit>

namespace sassim::traces {

CtaCoverage::CtaCoverage(const Dim3& grid) : grid_(grid), bits_((grid.count() + 63) / 64, 0) {}

bool CtaCoverage::add(const Dim3& id) {
  const std::uint64_t index =
      id.x + std::uint64_t{grid_.x} * (id.y + std::uint64_t{grid_.y} * id.z);
  std::uint64_t& word = bits_[index / 64];
  const std::uint64_t bit = std::uint64_t{1} << (index % 64);
  if ((word & bit) != 0) return false;
  word |= bit;
  ++seen_;
  return true;
}

std::string CtaCoverage::missing_message() const {
  const std::uint64_t total = grid_.count();
  const std::uint64_t missing = total - seen_;
  std::vector<std::string> shown;
  for (std::uint64_t w = 0; w < bits_.size() && shown.size() < kListed; ++w) {
    std::uint64_t holes = ~bits_[w];
    while (holes != 0 && shown.size() < kListed) {
      const std::uint64_t index = w * 64 + static_cast<std::uint64_t>(std::countr_zero(holes));
      holes &= holes - 1;
      if (index >= total) break;
      const std::uint64_t x = index % grid_.x;
      const std::uint64_t y = index / grid_.x % grid_.y;
      const std::uint64_t z = index / grid_.x / grid_.y;
      shown.push_back(fmt::format("({},{},{})", x, y, z));
    }
  }
  return fmt::format("the grid ({},{},{}) has {} CTA{}, the trace {}: CTA{} {} {} missing", grid_.x,
                     grid_.y, grid_.z, total, total == 1 ? "" : "s", seen_, missing == 1 ? "" : "s",
                     listed(shown, missing), missing == 1 ? "is" : "are");
}

std::string listed(const std::vector<std::string>& shown, std::uint64_t total) {
  std::string out;
  const bool more = total > shown.size();
  for (std::size_t i = 0; i < shown.size(); ++i) {
    if (i > 0) out += (i + 1 == shown.size() && !more) ? " and " : ", ";
    out += shown[i];
  }
  if (more) out += fmt::format(" and {} more", total - shown.size());
  return out;
}

}  // namespace sassim::traces
