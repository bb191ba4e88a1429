#include "system/system_config_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "configs/reflection.h"

namespace sassim::system {

namespace {

namespace pb = google::protobuf;
using Tree = pb::TextFormat::ParseInfoTree;

// Where a problem is reported: the source and, when the field was written, its position.
struct Place {
  const std::string& source;
  const Tree* tree;  // the locations of the message holding the field; null when absent
};

std::string at(const Place& place, const pb::FieldDescriptor* field) {
  if (place.tree != nullptr && field != nullptr) {
    const pb::TextFormat::ParseLocation where = place.tree->GetLocation(field, -1);
    if (where.line >= 0) {
      return fmt::format("{}:{}:{}", place.source, where.line + 1, where.column + 1);
    }
  }
  return place.source;
}

double numeric(const pb::Message& message, const pb::FieldDescriptor& field) {
  const pb::Reflection& r = *message.GetReflection();
  switch (field.cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_UINT32:
      return r.GetUInt32(message, &field);
    case pb::FieldDescriptor::CPPTYPE_UINT64:
      return static_cast<double>(r.GetUInt64(message, &field));
    case pb::FieldDescriptor::CPPTYPE_DOUBLE:
      return r.GetDouble(message, &field);
    default:
      return NAN;
  }
}

// Required fields and ranges of `message` and the messages in it. Absent optional
// messages (nic, network) are the combination checks' business.
void walk(const pb::Message& message, const std::string& prefix, const Place& place,
          std::vector<std::string>& problems) {
  const pb::Descriptor& d = *message.GetDescriptor();
  const pb::Reflection& r = *message.GetReflection();
  for (int i = 0; i < d.field_count(); ++i) {
    const pb::FieldDescriptor& field = *d.field(i);
    const std::string path = prefix + field.name();
    const bool present = r.HasField(message, &field);
    if (field.cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (!present) continue;
      const Tree* nested = place.tree ? place.tree->GetTreeForNested(&field, -1) : nullptr;
      walk(r.GetMessage(message, &field), path + ".", Place{place.source, nested}, problems);
      continue;
    }
    if (!present && config::field_needs_value(field)) {
      problems.push_back(fmt::format("{}: missing field {}", place.source, path));
      continue;
    }
    if (!field.options().HasExtension(config::spec)) continue;
    const config::FieldSpec& range = field.options().GetExtension(config::spec);
    const double value = numeric(message, field);
    if (value >= range.min() && value <= range.max()) continue;
    problems.push_back(fmt::format("{}: {} = {} is out of range [{}, {}] {}", at(place, &field),
                                   path, config::format_number(value),
                                   config::format_number(range.min()),
                                   config::format_number(range.max()), range.unit()));
  }
}

const pb::FieldDescriptor* field_named(const pb::Message& message, const char* name) {
  return message.GetDescriptor()->FindFieldByName(name);
}

void check_combinations(const config::SystemConfig& s, const Tree& tree, const std::string& src,
                        std::vector<std::string>& problems) {
  const Place top{src, &tree};
  auto problem = [&](const Place& place, const pb::Message& m, const char* field,
                     const std::string& what) {
    problems.push_back(fmt::format("{}: {}", at(place, field_named(m, field)), what));
  };
  for (const char* name : {"nvlink", "pcie", "comm"}) {
    if (!s.GetReflection()->HasField(s, field_named(s, name))) {
      problems.push_back(fmt::format("{}: missing field {}", src, name));
    }
  }
  if (s.has_comm()) {
    for (const char* name : {"ll", "ll128", "simple"}) {
      if (!s.comm().GetReflection()->HasField(s.comm(), field_named(s.comm(), name))) {
        problems.push_back(fmt::format("{}: missing field comm.{}", src, name));
      }
    }
  }
  if (s.has_gpu_preset()) {
    const std::vector<std::string> names = config::preset_names();
    if (std::find(names.begin(), names.end(), s.gpu_preset()) == names.end()) {
      problem(top, s, "gpu_preset",
              fmt::format("gpu_preset \"{}\" names no GPU preset (sassim config list)",
                          s.gpu_preset()));
    }
  }
  if (s.nodes() > 1) {
    if (!s.has_nic()) problems.push_back(fmt::format("{}: missing field nic (nodes > 1)", src));
    if (!s.has_network()) {
      problems.push_back(fmt::format("{}: missing field network (nodes > 1)", src));
    }
  }
  const Tree* nvlink_tree = tree.GetTreeForNested(field_named(s, "nvlink"), -1);
  const Tree* switch_tree = tree.GetTreeForNested(field_named(s, "nvswitch"), -1);
  const Place nvlink_place{src, nvlink_tree};
  const Place switch_place{src, switch_tree};
  const uint32_t links = s.nvlink().links_per_gpu();
  if (s.nvswitch().present() && s.has_nvlink() && links == 0) {
    problem(switch_place, s.nvswitch(), "present",
            "nvswitch.present needs nvlink.links_per_gpu >= 1");
  }
  if (s.nvswitch().nvls() && (!s.nvswitch().present() || s.nvswitch().generation() < 3)) {
    problem(switch_place, s.nvswitch(), "nvls",
            "nvswitch.nvls needs nvswitch.present and nvswitch.generation >= 3");
  }
  if (s.nvswitch().has_nvls_efficiency() && !s.nvswitch().nvls()) {
    problem(switch_place, s.nvswitch(), "nvls_efficiency",
            "nvswitch.nvls_efficiency is set but nvswitch.nvls is false");
  }
  if (!s.nvswitch().present() && links > 0 && s.gpus_per_node() > 1 &&
      links % (s.gpus_per_node() - 1) != 0) {
    problem(nvlink_place, s.nvlink(), "links_per_gpu",
            fmt::format("nvlink.links_per_gpu = {}: without an NVSwitch the links are spread "
                        "evenly over the {} other GPUs of a node, so it must be a multiple of {}",
                        links, s.gpus_per_node() - 1, s.gpus_per_node() - 1));
  }
  if (s.has_nic() && s.nic().per_node() > s.gpus_per_node()) {
    const Tree* nic_tree = tree.GetTreeForNested(field_named(s, "nic"), -1);
    problem(Place{src, nic_tree}, s.nic(), "per_node",
            fmt::format("nic.per_node = {} exceeds gpus_per_node = {} (NICs are assigned to GPUs)",
                        s.nic().per_node(), s.gpus_per_node()));
  }
}

}  // namespace

std::vector<std::string> check_system_config(const config::SystemConfig& system,
                                             const Tree& locations, const std::string& source) {
  std::vector<std::string> problems;
  walk(system, "", Place{source, &locations}, problems);
  check_combinations(system, locations, source, problems);
  return problems;
}

}  // namespace sassim::system
