#include "configs/choices.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace sassim::config {
namespace {

char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// Edits (insert, delete, replace) from `a` to `b`, ignoring case.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t replace = diagonal + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, replace});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::optional<std::string_view> closest_name(std::string_view value,
                                             std::span<const std::string_view> names) {
  std::optional<std::string_view> best;
  std::size_t best_distance = 0;
  for (std::string_view name : names) {
    const std::size_t d = edit_distance(value, name);
    if (d > std::max<std::size_t>(1, name.size() / 3)) continue;
    if (!best || d < best_distance) {
      best = name;
      best_distance = d;
    }
  }
  return best;
}

std::optional<std::size_t> choice_index(std::span<const std::string_view> names,
                                        std::string_view name) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return std::nullopt;
  return static_cast<std::size_t>(it - names.begin());
}

const DramType* find_dram_type(std::string_view name) {
  for (const DramType& type : kDramTypes) {
    if (type.name == name) return &type;
  }
  return nullptr;
}

std::optional<std::string> choice_problem(std::string_view path, std::string_view value,
                                          std::span<const std::string_view> names) {
  if (choice_index(names, value)) return std::nullopt;
  std::string problem = fmt::format("{} = \"{}\" is not one of: {}", path, value,
                                    fmt::join(names.begin(), names.end(), ", "));
  if (auto suggestion = closest_name(value, names)) {
    problem += fmt::format(" (did you mean \"{}\"?)", *suggestion);
  }
  return problem;
}

}  // namespace sassim::config
