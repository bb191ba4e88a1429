#include "sweep/param_column.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::sweep {

namespace {

namespace pb = google::protobuf;
using Cpp = pb::FieldDescriptor::CppType;

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    segments.push_back(path.substr(start, dot == std::string::npos ? dot : dot - start));
    if (dot == std::string::npos) return segments;
    start = dot + 1;
  }
}

// The scalar a path leads to: the message holding it (null when a message on the way
// or the map entry is absent) and its field.
struct Target {
  const pb::Message* message = nullptr;
  const pb::FieldDescriptor* field = nullptr;
};

Target find(const pb::Message* message, const pb::Descriptor& root, const std::string& path) {
  const std::vector<std::string> segments = split_path(path);
  const pb::Descriptor* descriptor = &root;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    // An entry of a list of messages: "tensor_ops[2]" (as --set names it).
    std::string name = segments[i];
    int index = -1;
    if (const std::size_t open = name.find('['); open != std::string::npos && name.back() == ']') {
      const std::string digits = name.substr(open + 1, name.size() - open - 2);
      if (digits.empty() || digits.size() > 6 ||
          digits.find_first_not_of("0123456789") != std::string::npos) {
        break;
      }
      index = std::stoi(digits);
      name.resize(open);
    }
    const pb::FieldDescriptor* field = descriptor->FindFieldByName(name);
    if (field == nullptr) break;
    const bool last = i + 1 == segments.size();
    if (index >= 0) {
      if (!field->is_repeated() || field->is_map() || field->cpp_type() != Cpp::CPPTYPE_MESSAGE ||
          last) {
        break;
      }
      if (message != nullptr) {
        const pb::Reflection& reflection = *message->GetReflection();
        message = index < reflection.FieldSize(*message, field)
                      ? &reflection.GetRepeatedMessage(*message, field, index)
                      : nullptr;
      }
      descriptor = field->message_type();
      continue;
    }
    if (field->is_map() && i + 2 == segments.size()) {
      const pb::Descriptor& entry = *field->message_type();
      Target target{nullptr, entry.map_value()};
      if (message == nullptr) return target;
      const pb::Reflection& reflection = *message->GetReflection();
      for (int e = 0; e < reflection.FieldSize(*message, field); ++e) {
        const pb::Message& item = reflection.GetRepeatedMessage(*message, field, e);
        if (item.GetReflection()->GetString(item, entry.map_key()) == segments[i + 1]) {
          target.message = &item;
        }
      }
      return target;
    }
    if (field->is_repeated()) break;
    if (last && field->cpp_type() != Cpp::CPPTYPE_MESSAGE) return {message, field};
    if (last || field->cpp_type() != Cpp::CPPTYPE_MESSAGE) break;
    if (message != nullptr) message = &message->GetReflection()->GetMessage(*message, field);
    descriptor = field->message_type();
  }
  throw Error(fmt::format("'{}' names no scalar field of the config", path));
}

// A float as the shortest decimal that reads back to it, widened: 0.1f -> 0.1.
double widen(float value) {
  return std::stod(fmt::format("{}", value));
}

}  // namespace

Column make_param_column(const std::string& path) {
  const Target target = find(nullptr, *config::GpuConfig::descriptor(), path);
  Column column{path, {}};
  switch (target.field->cpp_type()) {
    case Cpp::CPPTYPE_INT32:
    case Cpp::CPPTYPE_INT64:
    case Cpp::CPPTYPE_BOOL:
      column.values = std::vector<std::int64_t>{};
      break;
    case Cpp::CPPTYPE_UINT32:
    case Cpp::CPPTYPE_UINT64:
      column.values = std::vector<std::uint64_t>{};
      break;
    case Cpp::CPPTYPE_FLOAT:
    case Cpp::CPPTYPE_DOUBLE:
      column.values = std::vector<double>{};
      break;
    case Cpp::CPPTYPE_STRING:
    case Cpp::CPPTYPE_ENUM:
    case Cpp::CPPTYPE_MESSAGE:
      column.values = std::vector<std::string>{};
      break;
  }
  return column;
}

void append_param_value(Column& column, const config::GpuConfig& config) {
  const Target target = find(&config, *config::GpuConfig::descriptor(), column.name);
  if (target.message == nullptr) {
    pad_column(column, 1);
    return;
  }
  const pb::Message& m = *target.message;
  const pb::Reflection& r = *m.GetReflection();
  const pb::FieldDescriptor* f = target.field;
  switch (f->cpp_type()) {
    case Cpp::CPPTYPE_INT32:
      return std::get<0>(column.values).push_back(r.GetInt32(m, f));
    case Cpp::CPPTYPE_INT64:
      return std::get<0>(column.values).push_back(r.GetInt64(m, f));
    case Cpp::CPPTYPE_BOOL:
      return std::get<0>(column.values).push_back(r.GetBool(m, f) ? 1 : 0);
    case Cpp::CPPTYPE_UINT32:
      return std::get<1>(column.values).push_back(r.GetUInt32(m, f));
    case Cpp::CPPTYPE_UINT64:
      return std::get<1>(column.values).push_back(r.GetUInt64(m, f));
    case Cpp::CPPTYPE_FLOAT:
      return std::get<2>(column.values).push_back(widen(r.GetFloat(m, f)));
    case Cpp::CPPTYPE_DOUBLE:
      return std::get<2>(column.values).push_back(r.GetDouble(m, f));
    case Cpp::CPPTYPE_STRING:
      return std::get<3>(column.values).push_back(r.GetString(m, f));
    case Cpp::CPPTYPE_ENUM:
      return std::get<3>(column.values).push_back(r.GetEnum(m, f)->name());
    case Cpp::CPPTYPE_MESSAGE:
      break;
  }
  pad_column(column, 1);
}

}  // namespace sassim::sweep
