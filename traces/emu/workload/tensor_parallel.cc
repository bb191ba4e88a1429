#include "traces/emu/workload/tensor_parallel.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::emu::workload {
namespace {

LayerOptions tp_shard(const LayerOptions& o) {
  if (o.tp == 0 || o.tp > kMaxTensorParallel) {
    throw Error(fmt::format("--tp {}: expected 1 to {} GPUs", o.tp, kMaxTensorParallel));
  }
  auto divide = [&](uint32_t value, std::string_view option) {
    if (value % o.tp != 0) {
      throw Error(
          fmt::format("--tp {} with {} {}: each rank holds {} / tp of them, so {} must "
                      "be a multiple of --tp",
                      o.tp, option, value, option, option));
    }
    return value / o.tp;
  };
  LayerOptions shard = o;
  shard.heads = divide(o.heads, "--heads");
  shard.kv_heads = divide(o.kv_heads, "--kv-heads");
  shard.ffn = divide(o.ffn, "--ffn");
  shard.tp = 1;
  return shard;
}

void add_all_reduces(LayerPlan& plan, const std::vector<std::string>& after) {
  const uint32_t tp = plan.options.tp;
  size_t next = 0;
  for (const std::string& step : after) {
    while (next < plan.launches.size() && plan.launches[next].step != step) ++next;
    if (next == plan.launches.size())
      throw Error(fmt::format("internal: the layer has no {}", step));
    traces::CollectiveCommand c;
    c.op = "all_reduce";
    c.bytes = uint64_t{plan.tokens} * plan.options.hidden * 2;
    c.type = "bf16";
    for (uint32_t r = 0; r < tp; ++r) c.ranks.push_back(r);
    plan.collectives.push_back({step + ".all_reduce", next, std::move(c)});
  }
}

}  // namespace

LayerPlan plan_tp_rank(const LayerOptions& o, LayerPlan (*plan_layer)(const LayerOptions&),
                       const std::vector<std::string>& after) {
  LayerPlan plan = plan_layer(tp_shard(o));
  plan.options.tp = o.tp;
  add_all_reduces(plan, after);
  return plan;
}

void write_collectives(const std::filesystem::path& folder, const LayerPlan& plan) {
  const std::filesystem::path list = folder / "kernelslist.g";
  std::ifstream in(list);
  std::ostringstream out;
  std::string line;
  size_t written = 0;
  while (std::getline(in, line)) {
    out << line << "\n";
    for (const PlannedCollective& c : plan.collectives) {
      // kernel-N.traceg, or with a compression suffix (.zst, .xz).
      const std::string file = fmt::format("kernel-{}.traceg", c.after + 1);
      if (line == file || line.starts_with(file + ".")) {
        out << traces::format_collective_line(c.command) << "\n";
        ++written;
      }
    }
  }
  if (written != plan.collectives.size()) {
    throw Error(
        fmt::format("{}: {} of the layer's {} collectives placed: a launch's kernel file "
                    "is not listed",
                    list.string(), written, plan.collectives.size()));
  }
  std::ofstream rewrite(list, std::ios::trunc);
  rewrite << out.str();
  rewrite.flush();
  if (!rewrite) throw Error(fmt::format("cannot write {}", list.string()));
}

}  // namespace sassim::emu::workload
