// to_text() and with_defaults(): the resolved config with every default written out.
#include <google/protobuf/text_format.h>

#include "configs/config_loader.h"
#include "configs/reflection.h"
#include "ground/error.h"

namespace sassim::config {

namespace {

namespace pb = google::protobuf;

bool has_any_default(const pb::Descriptor& message) {
  for (int i = 0; i < message.field_count(); ++i) {
    const pb::FieldDescriptor& field = *message.field(i);
    if (field.is_repeated()) continue;
    if (field.cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (has_any_default(*field.message_type())) return true;
    } else if (field.has_default_value()) {
      return true;
    }
  }
  return false;
}

// Sets each unset field that has a declared default to that default, creating
// absent messages whose fields all have defaults (e.g. `simulation`).
void write_defaults(pb::Message& message) {
  const pb::Descriptor& descriptor = *message.GetDescriptor();
  const pb::Reflection& reflection = *message.GetReflection();
  for (int i = 0; i < descriptor.field_count(); ++i) {
    const pb::FieldDescriptor* field = descriptor.field(i);
    if (field->is_repeated()) continue;
    if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      const bool present = reflection.HasField(message, field);
      if (present || (!message_needs_value(*field->message_type()) &&
                      has_any_default(*field->message_type()))) {
        write_defaults(*reflection.MutableMessage(&message, field));
      }
      continue;
    }
    if (reflection.HasField(message, field) || !field->has_default_value()) continue;
    switch (field->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_INT32:
        reflection.SetInt32(&message, field, field->default_value_int32());
        break;
      case pb::FieldDescriptor::CPPTYPE_INT64:
        reflection.SetInt64(&message, field, field->default_value_int64());
        break;
      case pb::FieldDescriptor::CPPTYPE_UINT32:
        reflection.SetUInt32(&message, field, field->default_value_uint32());
        break;
      case pb::FieldDescriptor::CPPTYPE_UINT64:
        reflection.SetUInt64(&message, field, field->default_value_uint64());
        break;
      case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        reflection.SetDouble(&message, field, field->default_value_double());
        break;
      case pb::FieldDescriptor::CPPTYPE_FLOAT:
        reflection.SetFloat(&message, field, field->default_value_float());
        break;
      case pb::FieldDescriptor::CPPTYPE_BOOL:
        reflection.SetBool(&message, field, field->default_value_bool());
        break;
      case pb::FieldDescriptor::CPPTYPE_STRING:
        reflection.SetString(&message, field, field->default_value_string());
        break;
      case pb::FieldDescriptor::CPPTYPE_ENUM:
        reflection.SetEnum(&message, field, field->default_value_enum());
        break;
      case pb::FieldDescriptor::CPPTYPE_MESSAGE:
        break;
    }
  }
}

}  // namespace

GpuConfig with_defaults(const GpuConfig& config) {
  GpuConfig complete = config;
  write_defaults(complete);
  return complete;
}

std::string to_text(const GpuConfig& config) {
  const GpuConfig complete = with_defaults(config);
  std::string text;
  if (!pb::TextFormat::PrintToString(complete, &text)) {
    throw Error("cannot print config as text");
  }
  return text;
}

}  // namespace sassim::config
