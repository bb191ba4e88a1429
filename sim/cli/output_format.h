#pragma once
// `--format table|json|csv` of the commands that print results (run, trace info,
// config show), and records written as JSON objects or CSV rows.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <CLI/CLI.hpp>

#include "ground/json_quote.h"  // json_quote, for the records' strings

namespace sassim::cli {

enum class Format { kTable, kJson, kCsv };

// "table", "json" or "csv"; nullopt for any other text.
std::optional<Format> parse_format(std::string_view name);

// Adds `--format FORMAT` (default table) to `cmd`. The value is checked when the command
// line is parsed, before the command runs: an unknown one is a usage error (exit 2)
// naming the accepted values.
void add_format_option(CLI::App& cmd, Format& format);

// A JSON value written as is (an array, a nested object); a CSV row leaves it out.
struct JsonText {
  std::string text;
};
using Value = std::variant<std::string, std::uint64_t, std::int64_t, double, bool, JsonText>;
// Named values in order: one JSON object, or one CSV row under a header of the names.
using Record = std::vector<std::pair<std::string, Value>>;

// The shortest text that reads back as the same double; null when not finite.
std::string json_number(double value);
std::string json_value(const Value& value);
// {"name": value, ...} on one line.
std::string json_object(const Record& record);

// The text, quoted (with doubled quotes) when it holds a comma, a quote or a line break.
std::string csv_field(std::string_view text);
// The names of the record's values (JsonText ones left out), comma-separated.
std::string csv_header(const Record& record);
// The record's values (JsonText ones left out), comma-separated.
std::string csv_row(const Record& record);

}  // namespace sassim::cli
