#pragma once
// A CSV file as profilers write it: tool chatter ("==PROF== ...", "==1234== ...")
// around one table whose header row names the columns. Fields may be quoted ("a,b",
// "" for a quote). Every row keeps its line number for error messages.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sassim::correlate {

struct CsvRow {
  std::size_t line = 0;  // 1-based line in the file
  std::vector<std::string> fields;
};

// Splits one CSV line into fields. Returns nullopt when a quoted field is not closed.
std::optional<std::vector<std::string>> split_csv_line(std::string_view line);

// A profiler chatter line: starts with "==" ("==PROF== ...", "==805446== ...").
bool is_tool_chatter(std::string_view line);

// The lines of a text file with their numbers. Throws sassim::Error when the file
// cannot be read or holds NUL bytes (a binary file, e.g. an .ncu-rep report).
struct TextLines {
  std::string file;
  std::vector<std::string> lines;  // without line terminators ("\r\n" too)
};
TextLines read_text_lines(const std::string& file);

// The table whose header starts at `header_index` (0-based into lines): the header's
// fields, then every following non-empty, non-chatter line split into fields. Throws
// sassim::Error "FILE:LINE: ..." when a row has a different number of fields than the
// header or an unclosed quote.
struct CsvTable {
  std::string file;
  std::size_t header_line = 0;  // 1-based
  std::vector<std::string> header;
  std::vector<CsvRow> rows;
  // Index of the column with this name, or nullopt.
  std::optional<std::size_t> column(std::string_view name) const;
  // Index of the column with this name; throws sassim::Error naming the file, the header
  // line and `what` (what the column is needed for) when absent.
  std::size_t require_column(std::string_view name, std::string_view what) const;
};
CsvTable read_csv_table(const TextLines& text, std::size_t header_index);

// Parses a number as profilers print it: optional sign, digits with optional ","
// thousands separators in groups of three ("5,773.25"), optional fraction and exponent.
// Returns nullopt for anything else (empty, "n/a", a decimal comma like "9,00").
std::optional<double> parse_number(std::string_view text);

// "FILE:LINE: message", the prefix of every input error.
std::string at(const std::string& file, std::size_t line);

}  // namespace sassim::correlate
