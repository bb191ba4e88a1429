#include "correlate/csv_table.h"

#include <charconv>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::correlate {

std::optional<std::vector<std::string>> split_csv_line(std::string_view line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') {
        field += c;
      } else if (i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
    } else {
      field += c;
    }
  }
  if (quoted) return std::nullopt;
  fields.push_back(std::move(field));
  return fields;
}

bool is_tool_chatter(std::string_view line) {
  return line.starts_with("==");
}

TextLines read_text_lines(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open the file", file));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string content = buffer.str();
  if (const auto nul = content.find('\0'); nul != std::string::npos) {
    throw Error(fmt::format(
        "{}: a binary file, not text (an Nsight Compute .ncu-rep report? export it as CSV with "
        "`ncu --import {} --csv --page raw > FILE.csv`)",
        file, file));
  }
  TextLines text{file, {}};
  std::size_t start = 0;
  while (start < content.size()) {
    std::size_t end = content.find('\n', start);
    if (end == std::string::npos) end = content.size();
    std::string line = content.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    text.lines.push_back(std::move(line));
    start = end + 1;
  }
  return text;
}

std::optional<std::size_t> CsvTable::column(std::string_view name) const {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  return std::nullopt;
}

std::size_t CsvTable::require_column(std::string_view name, std::string_view what) const {
  if (auto c = column(name)) return *c;
  throw Error(fmt::format("{} the header has no \"{}\" column, needed for {}",
                          at(file, header_line), name, what));
}

CsvTable read_csv_table(const TextLines& text, std::size_t header_index) {
  CsvTable table;
  table.file = text.file;
  table.header_line = header_index + 1;
  auto header = split_csv_line(text.lines.at(header_index));
  if (!header)
    throw Error(fmt::format("{} unclosed quote in the header", at(text.file, header_index + 1)));
  table.header = std::move(*header);
  for (std::size_t i = header_index + 1; i < text.lines.size(); ++i) {
    const std::string& line = text.lines[i];
    if (line.empty() || is_tool_chatter(line)) continue;
    auto fields = split_csv_line(line);
    if (!fields) throw Error(fmt::format("{} unclosed quote", at(text.file, i + 1)));
    if (fields->size() != table.header.size()) {
      throw Error(fmt::format("{} expected {} fields as in the header (line {}), found {}",
                              at(text.file, i + 1), table.header.size(), table.header_line,
                              fields->size()));
    }
    table.rows.push_back({i + 1, std::move(*fields)});
  }
  return table;
}

std::optional<double> parse_number(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  std::string plain;
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) plain += text[i++];
  // Integer part: digits, with "," only between groups of exactly three digits.
  std::size_t group = 0;
  bool any_digit = false, grouped = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      plain += c;
      ++group;
      any_digit = true;
    } else if (c == ',') {
      if (!any_digit || (grouped && group != 3) || (!grouped && group > 3)) return std::nullopt;
      grouped = true;
      group = 0;
    } else {
      break;
    }
  }
  if (!any_digit || (grouped && group != 3)) return std::nullopt;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    const bool ok =
        (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+';
    if (!ok) return std::nullopt;
    plain += c;
  }
  double value = 0;
  const char* begin = plain.data();
  const char* end = begin + plain.size();
  if (*begin == '+') ++begin;
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::string at(const std::string& file, std::size_t line) {
  return fmt::format("{}:{}:", file, line);
}

}  // namespace sassim::correlate
