#include "sim/cli/collective_json.h"

#include <fmt/format.h>

#include "sim/cli/output_format.h"

namespace sassim::cli {

std::string links_json(const system::Topology& topology, const system::CollectiveResult& r) {
  std::string links = "[";
  for (std::size_t id = 0; id < r.link_bytes.size(); ++id) {
    if (r.link_bytes[id] == 0) continue;
    const system::Link& link = topology.link(static_cast<uint32_t>(id));
    links += fmt::format("{}{{\"from\": {}, \"to\": {}, \"bytes\": {}, \"utilisation\": {}}}",
                         links.size() > 1 ? ", " : "", json_quote(topology.vertex(link.from).name),
                         json_quote(topology.vertex(link.to).name), r.link_bytes[id],
                         json_number(r.link_utilisation[id]));
  }
  return links + "]";
}

std::string gpu_sides_json(const system::CollectiveResult& r) {
  std::string gpus = "[";
  for (const system::GpuSide& g : r.gpus) {
    const double bytes_per_s = static_cast<double>(g.memory_read_bytes + g.memory_write_bytes) /
                               (static_cast<double>(r.time_ps) * 1e-12);
    gpus += fmt::format(
        "{}{{\"rank\": {}, \"sms\": {}, \"memory_read_bytes\": {}, "
        "\"memory_write_bytes\": {}, \"memory_gb_per_s\": {}}}",
        gpus.size() > 1 ? ", " : "", g.rank, g.sms, g.memory_read_bytes, g.memory_write_bytes,
        json_number(bytes_per_s / 1e9));
  }
  return gpus + "]";
}

}  // namespace sassim::cli
