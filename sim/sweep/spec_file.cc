#include "sim/sweep/spec_file.h"

#include <vector>

#include <fmt/format.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "isa/error.h"
#include "sim/sweep/durable_files.h"

namespace sassim::sweep {

namespace {

namespace pb = google::protobuf;

std::string_view between(std::string_view text, std::string_view open, std::string_view close) {
  const std::size_t start = text.find(open);
  if (start == std::string_view::npos) return {};
  const std::size_t from = start + open.size();
  const std::size_t end = text.find(close, from);
  return end == std::string_view::npos ? std::string_view{} : text.substr(from, end - from);
}

std::string field_names(const pb::Descriptor& message) {
  std::string names;
  for (int i = 0; i < message.field_count(); ++i) {
    names += (i > 0 ? ", " : "") + message.field(i)->name();
  }
  return names;
}

// Turns the parser's 0-based positions into "source:line:column: message" lines; an
// unknown field is pointed at by its name (the parser reports the token after it)
// and the message's known fields are listed.
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
      const pb::Descriptor* descriptor =
          pb::DescriptorPool::generated_pool()->FindMessageTypeByName(
              std::string(between(message, "Message type \"", "\"")));
      if (descriptor != nullptr) {
        if (!text.empty() && text.back() == '.') text.pop_back();
        text += fmt::format(" (fields: {})", field_names(*descriptor));
      }
    }
    lines_.push_back(fmt::format("{}:{}:{}: {}", source_, line + 1, column + 1, text));
  }
  void AddWarning(int line, pb::io::ColumnNumber column, const std::string& message) override {
    lines_.push_back(fmt::format("{}:{}:{}: warning: {}", source_, line + 1, column + 1, message));
  }

  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::string source_;
  std::vector<std::string_view> lines_of_text_;
  std::vector<std::string> lines_;
};

const pb::FieldDescriptor& field_of(const pb::Descriptor& message, std::string_view name) {
  const pb::FieldDescriptor* field = message.FindFieldByName(std::string(name));
  if (field == nullptr) {
    throw std::logic_error(fmt::format("{} has no field {}", message.full_name(), name));
  }
  return *field;
}

std::string format_location(const std::string& source, const pb::TextFormat::ParseLocation& at) {
  if (at.line < 0) return source;
  return fmt::format("{}:{}:{}", source, at.line + 1, at.column + 1);
}

class IgnoreErrors : public pb::io::ErrorCollector {
 public:
  void AddError(int, pb::io::ColumnNumber, const std::string&) override {}
};

// The position of each value written for a repeated scalar field, in order, given the
// positions the parser recorded for the field's names: after `name:` comes either one
// value or a `[v1, v2, ...]` list (the parser records one position per name only).
std::vector<pb::TextFormat::ParseLocation> value_locations(
    std::string_view text, const std::vector<pb::TextFormat::ParseLocation>& names) {
  std::vector<pb::TextFormat::ParseLocation> values;
  pb::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  IgnoreErrors ignore;
  pb::io::Tokenizer tokenizer(&input, &ignore);
  tokenizer.set_comment_style(pb::io::Tokenizer::SH_COMMENT_STYLE);
  std::size_t next = 0;
  while (next < names.size() && tokenizer.Next()) {
    const auto& token = tokenizer.current();
    if (token.line != names[next].line || token.column != names[next].column) continue;
    ++next;
    if (!tokenizer.Next() || tokenizer.current().text != ":" || !tokenizer.Next()) break;
    if (tokenizer.current().text != "[") {
      values.push_back({tokenizer.current().line, tokenizer.current().column});
      continue;
    }
    bool expect_value = true;
    while (tokenizer.Next() && tokenizer.current().text != "]") {
      const auto& item = tokenizer.current();
      if (item.text == ",") {
        expect_value = true;
      } else if (expect_value) {  // adjacent strings ("a" "b") make one value
        values.push_back({item.line, item.column});
        expect_value = false;
      }
    }
  }
  return values;
}

}  // namespace

SpecFile SpecFile::parse(std::string_view text, const std::string& source) {
  SpecFile file;
  file.source_ = source;
  file.text_ = std::string(text);
  file.locations_ = std::make_shared<pb::TextFormat::ParseInfoTree>();
  LocatedErrors errors(text, source);
  pb::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  parser.WriteLocationsTo(file.locations_.get());
  const bool ok = parser.ParseFromString(std::string(text), &file.spec_);
  if (!ok || !errors.lines().empty()) {
    std::string message;
    for (const std::string& line : errors.lines()) {
      if (!message.empty()) message += '\n';
      message += line;
    }
    if (message.empty()) message = fmt::format("{}: cannot parse the sweep spec", source);
    throw Error(message);
  }
  return file;
}

SpecFile SpecFile::read(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw Error(fmt::format("sweep spec '{}' does not exist or is not a file", path.string()));
  }
  const std::optional<std::string> text = read_text_file(path);
  if (!text) throw Error(fmt::format("cannot read sweep spec '{}'", path.string()));
  return parse(*text, path.string());
}

std::string SpecFile::where(std::string_view field, int index) const {
  const pb::FieldDescriptor& f = field_of(*SweepSpec::descriptor(), field);
  return format_location(source_, locations_->GetLocation(&f, index));
}

std::string SpecFile::where_in(std::string_view outer, int outer_index, std::string_view field,
                               int index) const {
  const pb::FieldDescriptor& o = field_of(*SweepSpec::descriptor(), outer);
  const pb::TextFormat::ParseInfoTree* nested = locations_->GetTreeForNested(&o, outer_index);
  if (nested == nullptr) return where(outer, outer_index);
  const pb::FieldDescriptor& f = field_of(*o.message_type(), field);
  if (index >= 0 && f.cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) {
    std::vector<pb::TextFormat::ParseLocation> names;
    for (int i = 0;; ++i) {
      const pb::TextFormat::ParseLocation at = nested->GetLocation(&f, i);
      if (at.line < 0) break;
      names.push_back(at);
    }
    const auto values = value_locations(text_, names);
    if (static_cast<std::size_t>(index) < values.size()) {
      return format_location(source_, values[static_cast<std::size_t>(index)]);
    }
  }
  const pb::TextFormat::ParseLocation at = nested->GetLocation(&f, index);
  return at.line < 0 ? where(outer, outer_index) : format_location(source_, at);
}

}  // namespace sassim::sweep
