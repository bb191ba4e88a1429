#include "configs/memory_estimate.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "configs/derived.h"

namespace sassim::config {

namespace {

constexpr double kGib = 1024.0 * 1024.0 * 1024.0;

// "1.5 GiB", "640 MiB", "12 KiB".
std::string size_text(double bytes) {
  if (bytes >= kGib) return fmt::format("{:.1f} GiB", bytes / kGib);
  if (bytes >= 1024.0 * 1024.0) return fmt::format("{:.1f} MiB", bytes / (1024.0 * 1024.0));
  return fmt::format("{:.1f} KiB", bytes / 1024.0);
}

// The limit in GiB: the variable's value, else the default; nullopt when it is malformed.
std::optional<double> memory_limit_gib(std::string& text) {
  const char* value = std::getenv(kMemoryLimitVariable);
  if (value == nullptr || *value == '\0') return kDefaultMemoryLimitGib;
  text = value;
  double gib = 0;
  const std::string_view v(value);
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), gib);
  if (ec != std::errc() || end != v.data() + v.size() || !(gib > 0) || !std::isfinite(gib)) {
    return std::nullopt;
  }
  return gib;
}

}  // namespace

std::vector<MemoryPart> memory_estimate(const GpuConfig& config) {
  const double sms = config.num_sms();
  std::vector<MemoryPart> parts;
  const L1Config& l1 = config.l1();
  const double l1_lines = static_cast<double>(l1_max_data_bytes(config)) / l1.line_bytes();
  parts.push_back({fmt::format("l1.unified_size_bytes = {} / l1.line_bytes = {} x num_sms = {}",
                               l1.unified_size_bytes(), l1.line_bytes(), config.num_sms()),
                   l1_lines * sms * kCacheLineStateBytes});
  const L2Config& l2 = config.l2();
  parts.push_back(
      {fmt::format("l2.size_bytes = {} / l2.line_bytes = {}", l2.size_bytes(), l2.line_bytes()),
       static_cast<double>(l2.size_bytes()) / l2.line_bytes() * kCacheLineStateBytes});
  const FrontendConfig& f = config.sm().frontend();
  parts.push_back({fmt::format("sm.frontend.l1i_size_bytes = {} / sm.frontend.l1i_line_bytes = {} "
                               "x num_sms = {}",
                               f.l1i_size_bytes(), f.l1i_line_bytes(), config.num_sms()),
                   static_cast<double>(f.l1i_size_bytes()) / f.l1i_line_bytes() * sms *
                       kInstCacheLineStateBytes});
  parts.push_back(
      {fmt::format("sm.frontend.l0i_size_bytes = {} / sm.frontend.l0i_line_bytes = {} x "
                   "sm.sub_cores = {} x num_sms = {}",
                   f.l0i_size_bytes(), f.l0i_line_bytes(), config.sm().sub_cores(),
                   config.num_sms()),
       static_cast<double>(f.l0i_size_bytes()) / f.l0i_line_bytes() * config.sm().sub_cores() *
           sms * kInstCacheLineStateBytes});
  parts.push_back(
      {fmt::format("l1.mshr_entries = {} x num_sms = {}", l1.mshr_entries(), config.num_sms()),
       double{l1.mshr_entries()} * sms * kMshrEntryBytes});
  parts.push_back(
      {fmt::format("l2.mshr_entries = {} x l2.slices = {}", l2.mshr_entries(), l2.slices()),
       double{l2.mshr_entries()} * l2.slices() * kMshrEntryBytes});
  parts.push_back(
      {fmt::format("sm.max_warps = {} x num_sms = {}", config.sm().max_warps(), config.num_sms()),
       double{config.sm().max_warps()} * sms * kWarpSlotBytes});
  std::stable_sort(parts.begin(), parts.end(),
                   [](const MemoryPart& a, const MemoryPart& b) { return a.bytes > b.bytes; });
  return parts;
}

void check_memory_estimate(const GpuConfig& config, std::vector<std::string>& problems) {
  std::string text;
  const std::optional<double> limit_gib = memory_limit_gib(text);
  if (!limit_gib) {
    problems.push_back(fmt::format("{} = '{}': expected a memory limit in GiB above 0",
                                   kMemoryLimitVariable, text));
    return;
  }
  const std::vector<MemoryPart> parts = memory_estimate(config);
  double total = 0;
  for (const MemoryPart& part : parts) total += part.bytes;
  const double limit = *limit_gib * kGib;
  if (total <= limit) return;
  // The parts that make up most of it: the largest ones until 90% of the total is named.
  std::string named;
  double covered = 0;
  for (const MemoryPart& part : parts) {
    if (covered >= 0.9 * total) break;
    named += fmt::format("{}{}: {}", named.empty() ? "" : "; ", part.fields, size_text(part.bytes));
    covered += part.bytes;
  }
  problems.push_back(
      fmt::format("the model of this config needs an estimated {} of memory, more than the limit "
                  "of {} ({}={} raises it); most of it: {}",
                  size_text(total), size_text(limit), kMemoryLimitVariable,
                  fmt::format("{}", std::ceil(total / kGib)), named));
}

}  // namespace sassim::config
