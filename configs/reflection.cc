#include "configs/reflection.h"

#include <cmath>
#include <set>

#include <fmt/format.h>

namespace sassim::config {

namespace pb = google::protobuf;

std::string field_list(const pb::Descriptor& message) {
  std::string names;
  for (int i = 0; i < message.field_count(); ++i) {
    if (i > 0) names += ", ";
    names += message.field(i)->name();
  }
  return names;
}

namespace {

bool needs_value(const pb::FieldDescriptor& field, std::set<const pb::Descriptor*>& visiting);

bool message_needs_value(const pb::Descriptor& message, std::set<const pb::Descriptor*>& visiting) {
  // A message type that contains itself is optional at the point of recursion.
  if (!visiting.insert(&message).second) return false;
  bool needed = false;
  for (int i = 0; i < message.field_count() && !needed; ++i) {
    needed = needs_value(*message.field(i), visiting);
  }
  visiting.erase(&message);
  return needed;
}

bool needs_value(const pb::FieldDescriptor& field, std::set<const pb::Descriptor*>& visiting) {
  if (field.is_repeated()) return false;  // maps and lists may be empty
  // `base` names where values come from; the resolved config never carries it.
  // `energy` is optional: a config without it reports no energy (its fields are all
  // needed once it is there).
  if (field.containing_type()->full_name() == "sassim.config.GpuConfig" &&
      (field.name() == "base" || field.name() == "energy")) {
    return false;
  }
  if (field.cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
    return message_needs_value(*field.message_type(), visiting);
  }
  return !field.has_default_value();
}

}  // namespace

bool field_needs_value(const pb::FieldDescriptor& field) {
  std::set<const pb::Descriptor*> visiting;
  return needs_value(field, visiting);
}

bool message_needs_value(const pb::Descriptor& message) {
  std::set<const pb::Descriptor*> visiting;
  return message_needs_value(message, visiting);
}

std::string format_number(double value) {
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e18) {
    return fmt::format("{:.0f}", value);
  }
  return fmt::format("{}", value);
}

std::string value_kind(const pb::FieldDescriptor& field) {
  switch (field.cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_UINT32:
    case pb::FieldDescriptor::CPPTYPE_UINT64:
      return "an unsigned integer";
    case pb::FieldDescriptor::CPPTYPE_INT32:
    case pb::FieldDescriptor::CPPTYPE_INT64:
      return "an integer";
    case pb::FieldDescriptor::CPPTYPE_DOUBLE:
    case pb::FieldDescriptor::CPPTYPE_FLOAT:
      return "a number";
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      return "true or false";
    case pb::FieldDescriptor::CPPTYPE_STRING:
      return "a string";
    case pb::FieldDescriptor::CPPTYPE_ENUM:
      return "an enum value";
    case pb::FieldDescriptor::CPPTYPE_MESSAGE:
      return fmt::format("a {} message", field.message_type()->name());
  }
  return "a value";
}

}  // namespace sassim::config
