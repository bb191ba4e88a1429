#include "configs/text_parser.h"

#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include "configs/reflection.h"
#include "ground/error.h"

namespace sassim::config {

namespace {

namespace pb = google::protobuf;

// The text between `open` and the next `close` after it in `text`, or "".
std::string_view between(std::string_view text, std::string_view open, std::string_view close) {
  const std::size_t start = text.find(open);
  if (start == std::string_view::npos) return {};
  const std::size_t from = start + open.size();
  const std::size_t end = text.find(close, from);
  return end == std::string_view::npos ? std::string_view{} : text.substr(from, end - from);
}

// Turns the parser's 0-based positions into "source:line:column: message" lines.
// For an unknown field it points at the field's name (the parser reports the token
// after it) and lists the fields the message does have.
class LocatedErrors : public pb::io::ErrorCollector {
 public:
  LocatedErrors(std::string_view text, const std::string& source) : source_(source) {
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t end = text.find('\n', start);
      lines_of_text_.push_back(text.substr(start, end == text.npos ? text.npos : end - start));
      if (end == text.npos) break;
      start = end + 1;
    }
  }

  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    std::string text = message;
    const std::string_view field = between(message, "has no field named \"", "\"");
    if (!field.empty() && line >= 0 && static_cast<std::size_t>(line) < lines_of_text_.size()) {
      const std::string_view source_line = lines_of_text_[static_cast<std::size_t>(line)];
      const std::size_t at = source_line.rfind(field, static_cast<std::size_t>(column));
      if (at != std::string_view::npos) column = static_cast<pb::io::ColumnNumber>(at);
      const std::string type(between(message, "Message type \"", "\""));
      const pb::Descriptor* descriptor =
          pb::DescriptorPool::generated_pool()->FindMessageTypeByName(type);
      if (descriptor != nullptr) {
        if (!text.empty() && text.back() == '.') text.pop_back();
        text += fmt::format(" (fields: {})", field_list(*descriptor));
      }
    }
    lines_.push_back(fmt::format("{}:{}:{}: {}", source_, line + 1, column + 1, text));
  }
  void AddWarning(int line, pb::io::ColumnNumber column, const std::string& message) override {
    // Warnings (e.g. deprecated fields) are not fatal, but nothing should pass silently.
    lines_.push_back(fmt::format("{}:{}:{}: warning: {}", source_, line + 1, column + 1, message));
  }

  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::string source_;
  std::vector<std::string_view> lines_of_text_;
  std::vector<std::string> lines_;
};

}  // namespace

void parse_text_message(std::string_view text, const std::string& source, std::string_view what,
                        pb::Message& message, pb::TextFormat::ParseInfoTree* locations) {
  LocatedErrors errors(text, source);
  pb::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  if (locations != nullptr) parser.WriteLocationsTo(locations);
  const bool ok = parser.ParseFromString(std::string(text), &message);
  if (!ok || !errors.lines().empty()) {
    std::string joined;
    for (const std::string& line : errors.lines()) {
      if (!joined.empty()) joined += '\n';
      joined += line;
    }
    if (joined.empty()) joined = fmt::format("{}: cannot parse {}", source, what);
    throw Error(joined);
  }
}

GpuConfig parse_config_text(std::string_view text, const std::string& source) {
  GpuConfig config;
  parse_text_message(text, source, "config", config);
  return config;
}

GpuConfig read_config_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw Error(fmt::format("config file '{}' does not exist", path.string()));
  }
  if (std::filesystem::is_directory(path, ec)) {
    throw Error(fmt::format("config file '{}' is a directory", path.string()));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("cannot open config file '{}'", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error(fmt::format("cannot read config file '{}'", path.string()));
  return parse_config_text(text.str(), path.string());
}

}  // namespace sassim::config
