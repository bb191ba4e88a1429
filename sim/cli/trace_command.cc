// `sassim trace info TRACE`: kernels, launch shapes, instruction counts, opcode mix.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "ground/display_name.h"
#include "isa/arch.h"
#include "sim/cli/commands.h"
#include "traces/accelsim_reader.h"
#include "traces/trace_summary.h"

namespace sassim::cli {
namespace {

void print_info(const std::string& trace, std::size_t top) {
  auto workload = traces::open_accelsim_workload(trace);
  const std::vector<traces::KernelSummary> kernels = traces::summarize(*workload);
  std::uint64_t total = 0;
  std::map<std::string, std::uint64_t> mix;
  for (const traces::KernelSummary& k : kernels) {
    const auto& i = k.info;
    fmt::print(
        "kernel {} {}\n{}  {} tracer {}, grid ({},{},{}) block ({},{},{}), {} regs, {} B shared, "
        "stream {}\n  {} CTAs, {} warps, {} warp instructions ({} memory)\n",
        i.id, demangle(i.name),
        demangle(i.name) == i.name ? "" : fmt::format("  mangled {}\n", i.name),
        isa::arch_name(i.arch), i.tracer_version, i.grid.x, i.grid.y, i.grid.z, i.block.x,
        i.block.y, i.block.z, i.nregs, i.shmem_bytes, i.stream_id, k.ctas, k.warps, k.warp_insts,
        k.mem_insts);
    total += k.warp_insts;
    for (const auto& [op, n] : k.opcode_mix) mix[op] += n;
  }
  std::vector<std::pair<std::string, std::uint64_t>> sorted(mix.begin(), mix.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  fmt::print("total: {} kernels, {} warp instructions\nopcode mix (top {}):\n", kernels.size(),
             total, std::min(top, sorted.size()));
  for (std::size_t n = 0; n < sorted.size() && n < top; ++n) {
    fmt::print("  {:<12} {:>12} {:>6.2f}%\n", sorted[n].first, sorted[n].second,
               total == 0
                   ? 0.0
                   : 100.0 * static_cast<double>(sorted[n].second) / static_cast<double>(total));
  }
}

}  // namespace

void add_trace_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("trace", "Inspect traces");
  cmd->require_subcommand(1);
  auto trace = std::make_shared<std::string>();
  auto top = std::make_shared<std::size_t>(20);
  CLI::App* info = cmd->add_subcommand(
      "info", "Print kernels, launch shapes, instruction counts and the opcode mix");
  info->add_option("trace", *trace, "kernelslist.g, or a folder holding one")->required();
  info->add_option("--top", *top, "opcodes to list")->capture_default_str();
  info->callback([trace, top] { print_info(*trace, *top); });
}

}  // namespace sassim::cli
