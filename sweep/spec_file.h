#pragma once
// Reading a sweep spec file (SweepSpec in Protobuf text format) and pointing at the
// place in it where a field was written, for error messages.
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include <google/protobuf/text_format.h>

#include "configs/sweep_spec.pb.h"

namespace sassim::sweep {

// A parsed spec with the line and column of every field it sets.
class SpecFile {
 public:
  // Parses `text`; syntax errors and unknown fields throw sassim::Error with one
  // "source:line:column: message" line per problem (line and column from 1).
  static SpecFile parse(std::string_view text, const std::string& source);
  // Reads and parses a file; a missing or unreadable file throws sassim::Error.
  static SpecFile read(const std::filesystem::path& path);

  const SweepSpec& spec() const { return spec_; }
  const std::string& source() const { return source_; }

  // "source:line:column" of a top-level field (element `index` of a repeated one),
  // or "source" when the field is not written in the file.
  std::string where(std::string_view field, int index = -1) const;
  // "source:line:column" of field `field` (element `index`) inside element `outer_index`
  // of the repeated top-level message field `outer`. An element of a list
  // (`values: ["a", "b"]`) is located at its own value.
  std::string where_in(std::string_view outer, int outer_index, std::string_view field,
                       int index = -1) const;

 private:
  SpecFile() = default;
  SweepSpec spec_;
  std::string source_;
  std::string text_;
  std::shared_ptr<google::protobuf::TextFormat::ParseInfoTree> locations_;
};

}  // namespace sassim::sweep
