#include "sim/cli/output_format.h"

#include <cmath>

#include <fmt/format.h>

namespace sassim::cli {

std::optional<Format> parse_format(std::string_view name) {
  if (name == "table") return Format::kTable;
  if (name == "json") return Format::kJson;
  if (name == "csv") return Format::kCsv;
  return std::nullopt;
}

void add_format_option(CLI::App& cmd, Format& format) {
  const CLI::Validator accepted(
      [](const std::string& name) -> std::string {
        if (parse_format(name)) return "";
        return fmt::format("unknown format '{}' (accepted: table, json, csv)", name);
      },
      "", "format");
  cmd.add_option_function<std::string>(
         "--format", [&format](const std::string& name) { format = *parse_format(name); },
         "output: table (for people, the default), json (one document) or csv (a header "
         "and one row per record); in json and csv, notes go to stderr")
      ->type_name("table|json|csv")
      ->check(accepted);
}

std::string json_number(double value) {
  return std::isfinite(value) ? fmt::format("{}", value) : std::string("null");
}

std::string json_value(const Value& value) {
  if (const auto* s = std::get_if<std::string>(&value)) return json_quote(*s);
  if (const auto* u = std::get_if<std::uint64_t>(&value)) return fmt::format("{}", *u);
  if (const auto* i = std::get_if<std::int64_t>(&value)) return fmt::format("{}", *i);
  if (const auto* d = std::get_if<double>(&value)) return json_number(*d);
  if (const auto* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  return std::get<JsonText>(value).text;
}

std::string json_object(const Record& record) {
  std::string out = "{";
  for (const auto& [name, value] : record) {
    if (out.size() > 1) out += ", ";
    out += json_quote(name) + ": " + json_value(value);
  }
  return out + "}";
}

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_header(const Record& record) {
  std::string out;
  for (const auto& [name, value] : record) {
    if (std::holds_alternative<JsonText>(value)) continue;
    if (!out.empty()) out += ',';
    out += csv_field(name);
  }
  return out;
}

std::string csv_row(const Record& record) {
  std::string out;
  bool first = true;
  for (const auto& [name, value] : record) {
    if (std::holds_alternative<JsonText>(value)) continue;
    if (!first) out += ',';
    first = false;
    if (const auto* s = std::get_if<std::string>(&value)) {
      out += csv_field(*s);
    } else if (const auto* d = std::get_if<double>(&value)) {
      out += fmt::format("{}", *d);
    } else {
      out += json_value(value);
    }
  }
  return out;
}

}  // namespace sassim::cli
