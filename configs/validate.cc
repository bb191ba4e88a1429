// validate(): required fields and (spec) ranges by a walk over the descriptors, the
// name-valued fields against their registries' lists, then the hand-written combination
// checks.
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "configs/combination_checks.h"
#include "configs/config_loader.h"
#include "configs/reflection.h"
#include "ground/error.h"

namespace sassim::config {

namespace {

namespace pb = google::protobuf;

// Value of a numeric field (its default when unset); false for other types.
bool numeric_value(const pb::Message& message, const pb::FieldDescriptor& field, double& value) {
  const pb::Reflection& reflection = *message.GetReflection();
  switch (field.cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_INT32:
      value = reflection.GetInt32(message, &field);
      return true;
    case pb::FieldDescriptor::CPPTYPE_INT64:
      value = static_cast<double>(reflection.GetInt64(message, &field));
      return true;
    case pb::FieldDescriptor::CPPTYPE_UINT32:
      value = reflection.GetUInt32(message, &field);
      return true;
    case pb::FieldDescriptor::CPPTYPE_UINT64:
      value = static_cast<double>(reflection.GetUInt64(message, &field));
      return true;
    case pb::FieldDescriptor::CPPTYPE_DOUBLE:
      value = reflection.GetDouble(message, &field);
      return true;
    case pb::FieldDescriptor::CPPTYPE_FLOAT:
      value = reflection.GetFloat(message, &field);
      return true;
    default:
      return false;
  }
}

void check_range(const pb::Message& message, const pb::FieldDescriptor& field,
                 const std::string& path, std::vector<std::string>& problems) {
  if (!field.options().HasExtension(spec)) return;
  const FieldSpec& range = field.options().GetExtension(spec);
  double value = 0;
  if (!numeric_value(message, field, value)) return;
  const double low = range.has_min() ? range.min() : -INFINITY;
  const double high = range.has_max() ? range.max() : INFINITY;
  if (value >= low && value <= high) return;  // false for NaN too
  const std::string unit = range.has_unit() ? " " + range.unit() : "";
  problems.push_back(fmt::format("{} = {} is out of range [{}, {}]{}", path, format_number(value),
                                 range.has_min() ? format_number(low) : "-inf",
                                 range.has_max() ? format_number(high) : "inf", unit));
}

void check_fields(const pb::Message& message, const std::string& prefix,
                  std::vector<std::string>& problems) {
  const pb::Descriptor& descriptor = *message.GetDescriptor();
  const pb::Reflection& reflection = *message.GetReflection();
  for (int i = 0; i < descriptor.field_count(); ++i) {
    const pb::FieldDescriptor& field = *descriptor.field(i);
    if (field.is_repeated()) continue;  // maps are checked by hand
    const std::string path = prefix + field.name();
    const bool present = reflection.HasField(message, &field);
    if (field.cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (present) {
        check_fields(reflection.GetMessage(message, &field), path + ".", problems);
      } else if (field_needs_value(field)) {
        problems.push_back(
            fmt::format("missing field {} ({} message)", path, field.message_type()->name()));
      }
      continue;
    }
    if (!present && field_needs_value(field)) {
      problems.push_back(fmt::format("missing field {}", path));
      continue;
    }
    check_range(message, field, path, problems);
  }
}

}  // namespace

void validate(const GpuConfig& config) {
  std::vector<std::string> problems;
  check_fields(config, "", problems);
  // Combinations need every value in place; report missing ones first.
  const bool complete = problems.empty();
  check_names(config, problems);
  if (complete) check_combinations(config, problems);
  if (problems.empty()) return;
  std::string message;
  for (const std::string& problem : problems) {
    if (!message.empty()) message += '\n';
    message += problem;
  }
  throw Error(message);
}

}  // namespace sassim::config
