// apply_override(): "a.b.c=value" assignments applied by a walk over the descriptors.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "configs/reflection.h"
#include "ground/error.h"

namespace sassim::config {

namespace {

namespace pb = google::protobuf;

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> segments;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    segments.push_back(path.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) return segments;
    start = dot + 1;
  }
}

template <typename T>
bool parse_integer(std::string_view text, T& value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return !text.empty() && ec == std::errc() && ptr == end;
}

bool parse_double(std::string_view text, double& value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return !text.empty() && ec == std::errc() && ptr == end;
}

// Reports a value that does not fit the field; `kind` says what was expected.
[[noreturn]] void bad_value(std::string_view assignment, std::string_view kind,
                            std::string_view value) {
  throw Error(fmt::format("--set {}: expected {}, got '{}'", assignment, kind, value));
}

// Reports a bad unsigned value, telling an overflow apart from text that is no number.
template <typename T>
[[noreturn]] void bad_unsigned(std::string_view assignment, std::string_view value) {
  const bool digits = !value.empty() && value.find_first_not_of("0123456789") == value.npos;
  if (digits) {
    bad_value(assignment,
              fmt::format("an unsigned integer no larger than {}", std::numeric_limits<T>::max()),
              value);
  }
  bad_value(assignment, "an unsigned integer", value);
}

// Parses `value` into a scalar field of `message` (which may be a map entry).
// A list of unsigned integers: "16,16,18" replaces it, "" clears it.
void set_uint32_list(pb::Message& message, const pb::FieldDescriptor& field, std::string_view value,
                     std::string_view assignment) {
  const pb::Reflection& reflection = *message.GetReflection();
  reflection.ClearField(&message, &field);
  for (std::size_t start = 0; start < value.size();) {
    const std::size_t comma = std::min(value.find(',', start), value.size());
    const std::string_view item = value.substr(start, comma - start);
    std::uint32_t parsed = 0;
    if (!parse_integer(item, parsed)) {
      bad_value(assignment, "a comma-separated list of unsigned integers (empty: none)", value);
    }
    reflection.AddUInt32(&message, &field, parsed);
    start = comma + 1;
    if (comma + 1 == value.size()) {
      bad_value(assignment, "a comma-separated list of unsigned integers (empty: none)", value);
    }
  }
}

void set_scalar(pb::Message& message, const pb::FieldDescriptor& field, std::string_view value,
                std::string_view assignment) {
  const pb::Reflection& reflection = *message.GetReflection();
  switch (field.cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_UINT32: {
      std::uint32_t parsed = 0;
      if (!parse_integer(value, parsed)) bad_unsigned<std::uint32_t>(assignment, value);
      reflection.SetUInt32(&message, &field, parsed);
      return;
    }
    case pb::FieldDescriptor::CPPTYPE_UINT64: {
      std::uint64_t parsed = 0;
      if (!parse_integer(value, parsed)) bad_unsigned<std::uint64_t>(assignment, value);
      reflection.SetUInt64(&message, &field, parsed);
      return;
    }
    case pb::FieldDescriptor::CPPTYPE_INT32: {
      std::int32_t parsed = 0;
      if (!parse_integer(value, parsed)) bad_value(assignment, "a 32-bit integer", value);
      reflection.SetInt32(&message, &field, parsed);
      return;
    }
    case pb::FieldDescriptor::CPPTYPE_INT64: {
      std::int64_t parsed = 0;
      if (!parse_integer(value, parsed)) bad_value(assignment, "an integer", value);
      reflection.SetInt64(&message, &field, parsed);
      return;
    }
    case pb::FieldDescriptor::CPPTYPE_DOUBLE:
    case pb::FieldDescriptor::CPPTYPE_FLOAT: {
      double parsed = 0;
      if (!parse_double(value, parsed)) bad_value(assignment, "a number", value);
      if (field.cpp_type() == pb::FieldDescriptor::CPPTYPE_DOUBLE) {
        reflection.SetDouble(&message, &field, parsed);
      } else {
        if (std::isfinite(parsed) && std::fabs(parsed) > std::numeric_limits<float>::max()) {
          bad_value(assignment, "a number within the range of a float", value);
        }
        reflection.SetFloat(&message, &field, static_cast<float>(parsed));
      }
      return;
    }
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      if (value == "true" || value == "1") {
        reflection.SetBool(&message, &field, true);
      } else if (value == "false" || value == "0") {
        reflection.SetBool(&message, &field, false);
      } else {
        bad_value(assignment, "true or false", value);
      }
      return;
    case pb::FieldDescriptor::CPPTYPE_STRING:
      reflection.SetString(&message, &field, std::string(value));
      return;
    case pb::FieldDescriptor::CPPTYPE_ENUM: {
      const pb::EnumDescriptor& type = *field.enum_type();
      const pb::EnumValueDescriptor* named = type.FindValueByName(std::string(value));
      if (named == nullptr) {
        std::string names;
        for (int i = 0; i < type.value_count(); ++i) {
          names += (i > 0 ? ", " : "") + type.value(i)->name();
        }
        bad_value(assignment, "one of " + names, value);
      }
      reflection.SetEnum(&message, &field, named);
      return;
    }
    case pb::FieldDescriptor::CPPTYPE_MESSAGE:
      break;
  }
  throw Error(fmt::format("--set {}: '{}' is {}; set one of its fields ({})", assignment,
                          field.name(), value_kind(field), field_list(*field.message_type())));
}

// One segment of a path: a field name and, for an entry of a list of messages, its index
// ("tensor_ops[2]").
struct Segment {
  std::string_view name;
  std::optional<int> index;
};

Segment parse_segment(std::string_view segment, std::string_view assignment) {
  const std::size_t open = segment.find('[');
  if (open == std::string_view::npos) return {segment, std::nullopt};
  int index = -1;
  if (segment.back() != ']' ||
      !parse_integer(segment.substr(open + 1, segment.size() - open - 2), index) || index < 0) {
    throw Error(fmt::format("--set {}: '{}': expected NAME[INDEX] with a whole-number index",
                            assignment, segment));
  }
  return {segment.substr(0, open), index};
}

// The entry `index` of the list of messages `field`, with an error naming the list's size.
pb::Message* list_entry(pb::Message& message, const pb::FieldDescriptor& field, int index,
                        std::string_view assignment) {
  if (!field.is_repeated() || field.is_map() ||
      field.cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) {
    throw Error(fmt::format("--set {}: '{}' is {}; only a list of messages takes an index",
                            assignment, field.name(), value_kind(field)));
  }
  const int size = message.GetReflection()->FieldSize(message, &field);
  if (index >= size) {
    throw Error(fmt::format("--set {}: '{}' has {} entr{} in this config; [{}] is none of them",
                            assignment, field.name(), size, size == 1 ? "y" : "ies", index));
  }
  return message.GetReflection()->MutableRepeatedMessage(&message, &field, index);
}

// Sets map[key] = value for a map field whose key is a string.
void set_map_entry(pb::Message& message, const pb::FieldDescriptor& field, std::string_view key,
                   std::string_view value, std::string_view assignment) {
  const pb::Descriptor& entry_type = *field.message_type();
  const pb::FieldDescriptor& key_field = *entry_type.map_key();
  const pb::FieldDescriptor& value_field = *entry_type.map_value();
  if (key_field.cpp_type() != pb::FieldDescriptor::CPPTYPE_STRING) {
    throw Error(fmt::format("--set {}: only maps keyed by name can be overridden", assignment));
  }
  if (value_field.cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
    throw Error(fmt::format("--set {}: maps of messages cannot be overridden", assignment));
  }
  const pb::Reflection& reflection = *message.GetReflection();
  // Replace an existing entry in place; otherwise append one. The map view stays
  // consistent because reflection access goes through the map's repeated form.
  const int size = reflection.FieldSize(message, &field);
  for (int i = 0; i < size; ++i) {
    pb::Message* entry = reflection.MutableRepeatedMessage(&message, &field, i);
    if (entry->GetReflection()->GetString(*entry, &key_field) == key) {
      set_scalar(*entry, value_field, value, assignment);
      return;
    }
  }
  pb::Message* entry = reflection.AddMessage(&message, &field);
  entry->GetReflection()->SetString(entry, &key_field, std::string(key));
  set_scalar(*entry, value_field, value, assignment);
}

}  // namespace

void apply_override(GpuConfig& config, std::string_view assignment) {
  apply_override(static_cast<pb::Message&>(config), assignment);
}

void apply_override(pb::Message& config, std::string_view assignment) {
  const std::size_t equals = assignment.find('=');
  if (equals == std::string_view::npos) {
    throw Error(fmt::format("--set {}: expected path=value, e.g. sm.units.fp32.latency_cycles=5",
                            assignment));
  }
  const std::string_view path = assignment.substr(0, equals);
  const std::string_view value = assignment.substr(equals + 1);
  const std::vector<std::string_view> segments = split_path(path);

  pb::Message* message = &config;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const Segment segment = parse_segment(segments[i], assignment);
    const pb::Descriptor& descriptor = *message->GetDescriptor();
    if (segment.name.empty()) {
      throw Error(fmt::format("--set {}: empty field name in '{}'", assignment, path));
    }
    const pb::FieldDescriptor* field = descriptor.FindFieldByName(std::string(segment.name));
    if (field == nullptr) {
      throw Error(fmt::format("--set {}: {} has no field '{}' (fields: {})", assignment,
                              descriptor.name(), segment.name, field_list(descriptor)));
    }
    const bool last = i + 1 == segments.size();
    if (segment.index) {
      pb::Message* entry = list_entry(*message, *field, *segment.index, assignment);
      if (last) {
        throw Error(fmt::format("--set {}: '{}' is a message; set one of its fields ({})",
                                assignment, segments[i], field_list(*field->message_type())));
      }
      message = entry;
      continue;
    }
    if (field->is_map()) {
      if (i + 2 != segments.size() || segments[i + 1].empty()) {
        throw Error(fmt::format("--set {}: '{}' is a map; name one key: {}.<key>=value", assignment,
                                field->name(), field->name()));
      }
      set_map_entry(*message, *field, segments[i + 1], value, assignment);
      return;
    }
    if (field->is_repeated() && last && field->cpp_type() == pb::FieldDescriptor::CPPTYPE_UINT32) {
      set_uint32_list(*message, *field, value, assignment);
      return;
    }
    if (field->is_repeated()) {
      if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
        throw Error(fmt::format("--set {}: '{}' is a list; name one entry: {}[INDEX].<field>=value",
                                assignment, field->name(), field->name()));
      }
      throw Error(fmt::format("--set {}: '{}' is a list; lists cannot be overridden", assignment,
                              field->name()));
    }
    if (message == &config && field->name() == "base") {
      throw Error(
          fmt::format("--set {}: 'base' cannot be overridden (overrides apply after "
                      "the base chain is resolved)",
                      assignment));
    }
    if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE && !last) {
      message = message->GetReflection()->MutableMessage(message, field);
      continue;
    }
    if (!last) {
      throw Error(fmt::format("--set {}: '{}' is {}, it has no field '{}'", assignment,
                              field->name(), value_kind(*field), segments[i + 1]));
    }
    set_scalar(*message, *field, value, assignment);
  }
}

}  // namespace sassim::config
