#pragma once
// The markdown table every validation executable prints: one row per quantity with
// the model's figure, the reference, the error and where the reference comes from.
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace sassim::validation {

inline constexpr double kNoReference = std::numeric_limits<double>::quiet_NaN();

struct Row {
  std::string quantity;
  double model = 0;
  double reference = kNoReference;  // none: the row is informational
  std::string source;
  int decimals = 1;
  // A reference range [reference, reference_high] instead of one value: the error is
  // the distance to the nearer end (0 inside).
  double reference_high = kNoReference;
};

inline Row row(std::string quantity, double model, double reference, std::string source,
               int decimals = 1) {
  Row r;
  r.quantity = std::move(quantity);
  r.model = model;
  r.reference = reference;
  r.source = std::move(source);
  r.decimals = decimals;
  return r;
}

inline std::string error_percent(const Row& r) {
  if (std::isnan(r.reference)) return "—";
  double target = r.reference;
  if (!std::isnan(r.reference_high)) {
    if (r.model >= r.reference && r.model <= r.reference_high) return "0 (in range)";
    target = r.model < r.reference ? r.reference : r.reference_high;
  }
  return fmt::format("{:+.1f}", 100.0 * (r.model - target) / target);
}

inline std::string reference_text(const Row& r) {
  if (std::isnan(r.reference)) return "—";
  if (!std::isnan(r.reference_high))
    return fmt::format("{:.{}f}–{:.{}f}", r.reference, r.decimals, r.reference_high, r.decimals);
  return fmt::format("{:.{}f}", r.reference, r.decimals);
}

// Prints "## title", an optional paragraph, and the table.
inline void print_table(const std::string& title, const std::string& intro,
                        const std::vector<Row>& rows) {
  std::string out = fmt::format("## {}\n\n", title);
  if (!intro.empty()) out += intro + "\n\n";
  out += "| quantity | model | reference | error % | source |\n|---|---:|---:|---:|---|\n";
  for (const Row& r : rows) {
    out += fmt::format("| {} | {:.{}f} | {} | {} | {} |\n", r.quantity, r.model, r.decimals,
                       reference_text(r), error_percent(r), r.source);
  }
  std::fputs((out + "\n").c_str(), stdout);
}

}  // namespace sassim::validation
