#pragma once
// Descriptor-walk helpers shared by the override parser, the validator and the printer.
#include <string>

#include <google/protobuf/descriptor.h>

namespace sassim::config {

// "sub_cores, max_warps, ..." in declaration order, for error messages.
std::string field_list(const google::protobuf::Descriptor& message);

// True when a config must give this field a value: a scalar without a declared
// default, or a message that has such a field somewhere inside. `base` never does.
bool field_needs_value(const google::protobuf::FieldDescriptor& field);
// True when some field of the message needs a value (see field_needs_value).
bool message_needs_value(const google::protobuf::Descriptor& message);

// A number as a person writes it: "10000", "1099511627776", "0.5".
std::string format_number(double value);

// Kind of value a scalar field takes, for error messages: "an unsigned integer".
std::string value_kind(const google::protobuf::FieldDescriptor& field);

}  // namespace sassim::config
