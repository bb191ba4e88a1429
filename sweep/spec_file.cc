#include "sweep/spec_file.h"

#include <vector>

#include <fmt/format.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "configs/text_parser.h"
#include "ground/error.h"
#include "sweep/durable_files.h"

namespace sassim::sweep {

namespace {

namespace pb = google::protobuf;

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
  config::parse_text_message(text, source, "the sweep spec", file.spec_, file.locations_.get());
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
