#include "traces/collective_line.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "traces/tokens.h"
#include "traces/trace_error.h"

namespace sassim::traces {
namespace {

constexpr std::string_view kForm =
    "expected 'Collective,OP,bytes=N,type=T,ranks=R[,stream=S][,algorithm=A][,protocol=P]'";
constexpr std::uint32_t kMaxRank = 1u << 20;

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(sep, start);
    parts.push_back(trim(text.substr(start, end - start)));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

bool is_name(std::string_view word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// "0-3:8-11" into 0 1 2 3 8 9 10 11; nullopt on bad form, a range going down or a rank twice.
std::optional<std::vector<std::uint32_t>> parse_ranks(std::string_view text) {
  if (text == "all") return std::vector<std::uint32_t>{};
  std::vector<std::uint32_t> ranks;
  std::set<std::uint32_t> seen;
  for (std::string_view range : split(text, ':')) {
    const std::size_t dash = range.find('-');
    const auto first = parse_dec_u32(range.substr(0, dash));
    const auto last =
        dash == std::string_view::npos ? first : parse_dec_u32(range.substr(dash + 1));
    if (!first || !last || *last < *first || *last >= kMaxRank) return std::nullopt;
    for (std::uint32_t r = *first; r <= *last; ++r) {
      if (!seen.insert(r).second) return std::nullopt;
      ranks.push_back(r);
    }
  }
  return ranks;
}

}  // namespace

CollectiveCommand parse_collective_line(std::string_view text, std::string_view source,
                                        std::uint64_t line) {
  auto fail = [&](std::string_view what) {
    throw_at(source, line, fmt::format("'{}': {}; {}", excerpt(text), what, kForm));
  };
  const std::vector<std::string_view> fields = split(text, ',');
  if (fields.size() < 2 || fields[0] != kCollectivePrefix) fail("not a collective");
  CollectiveCommand c;
  c.op = fields[1];
  if (!is_name(c.op)) fail("no operation after 'Collective'");
  c.source = fmt::format("{}:{}", source, line);
  std::set<std::string_view> given;
  for (std::size_t i = 2; i < fields.size(); ++i) {
    const std::size_t eq = fields[i].find('=');
    if (eq == std::string_view::npos) fail(fmt::format("'{}' is not KEY=VALUE", fields[i]));
    const std::string_view key = fields[i].substr(0, eq), value = fields[i].substr(eq + 1);
    if (!given.insert(key).second) fail(fmt::format("{} given twice", key));
    if (key == "bytes") {
      const auto bytes = parse_dec_u64(value);
      if (!bytes || *bytes == 0) fail(fmt::format("bytes={}: expected a positive count", value));
      c.bytes = *bytes;
    } else if (key == "type" || key == "algorithm" || key == "protocol") {
      if (!is_name(value)) fail(fmt::format("{}={}: expected a name", key, value));
      (key == "type" ? c.type : key == "algorithm" ? c.algorithm : c.protocol) = value;
    } else if (key == "ranks") {
      auto ranks = parse_ranks(value);
      if (!ranks) {
        fail(
            fmt::format("ranks={}: expected rising ranges such as 0-7 or 0-3:8-11, each "
                        "rank once, or all",
                        value));
      }
      c.ranks = std::move(*ranks);
    } else if (key == "stream") {
      const auto stream = parse_dec_i64(value);
      if (!stream) fail(fmt::format("stream={}: expected a stream id", value));
      c.stream = *stream;
    } else {
      fail(fmt::format("unknown key '{}'", key));
    }
  }
  for (std::string_view key : {"bytes", "type", "ranks"}) {
    if (!given.contains(key)) fail(fmt::format("no {}=", key));
  }
  return c;
}

std::string format_ranks(const std::vector<std::uint32_t>& ranks) {
  if (ranks.empty()) return "all";
  std::string out;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!out.empty()) out += ':';
    out += j == i ? fmt::format("{}", ranks[i]) : fmt::format("{}-{}", ranks[i], ranks[j]);
    i = j + 1;
  }
  return out;
}

std::string format_collective_line(const CollectiveCommand& c) {
  std::string line = fmt::format("{},{},bytes={},type={},ranks={},stream={}", kCollectivePrefix,
                                 c.op, c.bytes, c.type, format_ranks(c.ranks), c.stream);
  if (c.algorithm != "auto") line += fmt::format(",algorithm={}", c.algorithm);
  if (c.protocol != "auto") line += fmt::format(",protocol={}", c.protocol);
  return line;
}

}  // namespace sassim::traces
