#include "traces/kernelslist.h"

#include <fmt/format.h>

#include "traces/line_source.h"
#include "traces/tokens.h"
#include "traces/trace_error.h"

namespace sassim::traces {
namespace {

MemcpyHtoD parse_memcpy(std::string_view line, const LineSource& lines) {
  constexpr std::string_view kExpected = "expected 'MemcpyHtoD,<hex address>,<decimal bytes>'";
  std::string_view rest = line.substr(std::string_view("MemcpyHtoD").size());
  std::size_t second = rest.find(',', 1);
  if (!rest.starts_with(',') || second == std::string_view::npos) {
    throw_at(lines, fmt::format("'{}': {}", excerpt(line), kExpected));
  }
  std::string_view address = trim(rest.substr(1, second - 1));
  auto addr = address.starts_with("0x") ? parse_hex_u64(address) : std::nullopt;
  auto bytes = parse_dec_u64(trim(rest.substr(second + 1)));
  if (!addr || !bytes) throw_at(lines, fmt::format("'{}': {}", excerpt(line), kExpected));
  return {*addr, *bytes};
}

bool is_file_name(std::string_view line) {
  for (char c : line) {
    if (c == ',' || is_blank(c) || c == '#') return false;
  }
  return true;
}

}  // namespace

std::optional<std::filesystem::path> find_trace_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(file, ec)) return file;
  for (const char* suffix : {".xz", ".zst"}) {
    std::filesystem::path compressed = file;
    compressed += suffix;
    if (std::filesystem::is_regular_file(compressed, ec)) return compressed;
  }
  return std::nullopt;
}

std::vector<ListEntry> read_kernelslist(const std::filesystem::path& list) {
  auto lines = open_line_source(list);
  const std::filesystem::path folder = list.parent_path();
  std::vector<ListEntry> entries;
  std::string_view raw;
  while (lines->next(raw)) {
    std::string_view line = trim(raw);
    if (line.empty()) continue;
    if (line.starts_with("MemcpyHtoD")) {
      entries.emplace_back(parse_memcpy(line, *lines));
      continue;
    }
    if (line.starts_with(kCollectivePrefix)) {
      entries.emplace_back(parse_collective_line(line, lines->name(), lines->line_number()));
      continue;
    }
    if (!is_file_name(line)) {
      throw_at(*lines, fmt::format("'{}': expected 'MemcpyHtoD,<hex address>,<bytes>', "
                                   "'Collective,...' or a kernel trace file name",
                                   excerpt(line)));
    }
    std::filesystem::path named = folder / std::string(line);
    auto found = find_trace_file(named);
    if (!found) {
      throw_at(*lines,
               fmt::format("kernel trace {} not found (nor {}.xz nor .zst): expected an "
                           "existing file relative to {}",
                           named.string(), named.string(), folder.empty() ? "." : folder.string()));
    }
    entries.emplace_back(KernelFile{*found, lines->line_number()});
  }
  return entries;
}

}  // namespace sassim::traces
