#include "configs/config_export.h"

#include <algorithm>

#include <fmt/format.h>
#include <google/protobuf/util/json_util.h>

#include "configs/config_loader.h"
#include "ground/error.h"

namespace sassim::config {

namespace {

namespace pb = google::protobuf;

using Fields = std::vector<std::pair<std::string, std::string>>;

// One value of a scalar field; `index` of a repeated one.
std::string scalar_text(const pb::Message& m, const pb::FieldDescriptor& f, int index) {
  const pb::Reflection& r = *m.GetReflection();
  const bool list = f.is_repeated();
  switch (f.cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_INT32:
      return fmt::format("{}", list ? r.GetRepeatedInt32(m, &f, index) : r.GetInt32(m, &f));
    case pb::FieldDescriptor::CPPTYPE_INT64:
      return fmt::format("{}", list ? r.GetRepeatedInt64(m, &f, index) : r.GetInt64(m, &f));
    case pb::FieldDescriptor::CPPTYPE_UINT32:
      return fmt::format("{}", list ? r.GetRepeatedUInt32(m, &f, index) : r.GetUInt32(m, &f));
    case pb::FieldDescriptor::CPPTYPE_UINT64:
      return fmt::format("{}", list ? r.GetRepeatedUInt64(m, &f, index) : r.GetUInt64(m, &f));
    case pb::FieldDescriptor::CPPTYPE_DOUBLE:
      return fmt::format("{}", list ? r.GetRepeatedDouble(m, &f, index) : r.GetDouble(m, &f));
    case pb::FieldDescriptor::CPPTYPE_FLOAT:
      return fmt::format("{}", list ? r.GetRepeatedFloat(m, &f, index) : r.GetFloat(m, &f));
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      return (list ? r.GetRepeatedBool(m, &f, index) : r.GetBool(m, &f)) ? "true" : "false";
    case pb::FieldDescriptor::CPPTYPE_STRING:
      return list ? r.GetRepeatedString(m, &f, index) : r.GetString(m, &f);
    case pb::FieldDescriptor::CPPTYPE_ENUM:
      return (list ? r.GetRepeatedEnum(m, &f, index) : r.GetEnum(m, &f))->name();
    case pb::FieldDescriptor::CPPTYPE_MESSAGE:
      break;
  }
  throw Error(fmt::format("internal: {} is not a scalar field", f.full_name()));
}

void flatten(const pb::Message& m, const std::string& prefix, Fields& out) {
  const pb::Reflection& r = *m.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r.ListFields(m, &fields);
  for (const pb::FieldDescriptor* f : fields) {
    const std::string path = prefix + f->name();
    if (f->is_map()) {
      // Entries by key, as the text format writes them.
      const pb::FieldDescriptor& key = *f->message_type()->map_key();
      const pb::FieldDescriptor& value = *f->message_type()->map_value();
      Fields entries;
      for (int i = 0; i < r.FieldSize(m, f); ++i) {
        const pb::Message& entry = r.GetRepeatedMessage(m, f, i);
        if (value.cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
          flatten(entry.GetReflection()->GetMessage(entry, &value),
                  path + "." + scalar_text(entry, key, -1) + ".", entries);
        } else {
          entries.emplace_back(path + "." + scalar_text(entry, key, -1),
                               scalar_text(entry, value, -1));
        }
      }
      std::stable_sort(entries.begin(), entries.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      out.insert(out.end(), entries.begin(), entries.end());
    } else if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (!f->is_repeated()) {
        flatten(r.GetMessage(m, f), path + ".", out);
        continue;
      }
      for (int i = 0; i < r.FieldSize(m, f); ++i) {
        flatten(r.GetRepeatedMessage(m, f, i), fmt::format("{}[{}].", path, i), out);
      }
    } else if (f->is_repeated()) {
      std::string values;
      for (int i = 0; i < r.FieldSize(m, f); ++i) {
        if (i > 0) values += ',';
        values += scalar_text(m, *f, i);
      }
      out.emplace_back(path, values);
    } else {
      out.emplace_back(path, scalar_text(m, *f, -1));
    }
  }
}

}  // namespace

std::string to_json(const GpuConfig& config) {
  pb::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.preserve_proto_field_names = true;
  std::string json;
  const auto status = pb::util::MessageToJsonString(with_defaults(config), &json, options);
  if (!status.ok()) throw Error(fmt::format("cannot print config as JSON: {}", status.ToString()));
  return json;
}

std::vector<std::pair<std::string, std::string>> flat_fields(const GpuConfig& config) {
  Fields out;
  flatten(with_defaults(config), "", out);
  return out;
}

}  // namespace sassim::config
