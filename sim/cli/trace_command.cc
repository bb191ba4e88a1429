// `sassim trace info TRACE [--top N] [--format table|json|csv]`: kernels, launch shapes,
// instruction counts, opcode mix.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "ground/display_name.h"
#include "ground/error.h"
#include "isa/arch.h"
#include "multigpu/ranks_file.h"
#include "sim/cli/commands.h"
#include "sim/cli/output_format.h"
#include "traces/accelsim_reader.h"
#include "traces/collective_line.h"
#include "traces/trace_summary.h"

namespace sassim::cli {
namespace {

// Opcodes by count, largest first (ties in name order).
std::vector<std::pair<std::string, std::uint64_t>> by_count(
    const std::map<std::string, std::uint64_t>& mix) {
  std::vector<std::pair<std::string, std::uint64_t>> sorted(mix.begin(), mix.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return sorted;
}

// {"IMAD": 120, "LDG": 40, ...}, largest first.
JsonText mix_json(const std::map<std::string, std::uint64_t>& mix) {
  Record record;
  for (const auto& [op, n] : by_count(mix)) record.emplace_back(op, n);
  return JsonText{json_object(record)};
}

Record kernel_record(const traces::KernelSummary& k) {
  const traces::KernelInfo& i = k.info;
  return {{"id", std::uint64_t{i.id}},
          {"name", i.name},
          {"demangled_name", demangle(i.name)},
          {"arch", std::string(isa::arch_name(i.arch))},
          {"binary_version", std::int64_t{i.binary_version}},
          {"tracer_version", i.tracer_version},
          {"grid_x", std::uint64_t{i.grid.x}},
          {"grid_y", std::uint64_t{i.grid.y}},
          {"grid_z", std::uint64_t{i.grid.z}},
          {"block_x", std::uint64_t{i.block.x}},
          {"block_y", std::uint64_t{i.block.y}},
          {"block_z", std::uint64_t{i.block.z}},
          {"nregs", std::uint64_t{i.nregs}},
          {"shmem_bytes", std::uint64_t{i.shmem_bytes}},
          {"stream_id", i.stream_id},
          {"ctas", k.ctas},
          {"warps", k.warps},
          {"warp_instructions", k.warp_insts},
          {"memory_instructions", k.mem_insts},
          {"opcode_mix", mix_json(k.opcode_mix)}};
}

// One document: the kernels (each with its whole opcode mix) and the totals.
void print_json(const std::string& trace, const std::vector<traces::KernelSummary>& kernels) {
  std::uint64_t total = 0;
  std::map<std::string, std::uint64_t> mix;
  fmt::print("{{\n  \"trace\": {},\n  \"kernels\": [", json_quote(trace));
  for (std::size_t n = 0; n < kernels.size(); ++n) {
    fmt::print("{}\n    {}", n == 0 ? "" : ",", json_object(kernel_record(kernels[n])));
    total += kernels[n].warp_insts;
    for (const auto& [op, count] : kernels[n].opcode_mix) mix[op] += count;
  }
  const Record totals = {{"kernels", std::uint64_t{kernels.size()}},
                         {"warp_instructions", total},
                         {"opcode_mix", mix_json(mix)}};
  fmt::print("{}],\n  \"total\": {}\n}}\n", kernels.empty() ? "" : "\n  ", json_object(totals));
}

// A header and one row per kernel (the opcode mix is json's only).
void print_csv(const std::vector<traces::KernelSummary>& kernels) {
  fmt::print("{}\n", csv_header(kernel_record(traces::KernelSummary{})));
  for (const traces::KernelSummary& k : kernels) fmt::print("{}\n", csv_row(kernel_record(k)));
}

void print_info(const std::string& trace, std::size_t top, Format format);

// A multi-GPU trace (a ranks.g): each distinct rank folder's table, named with its ranks.
void print_system_info(const std::string& trace, std::size_t top, Format format) {
  if (format != Format::kTable) {
    throw Error(
        fmt::format("{}: a multi-GPU trace (ranks.g): --format {} takes one rank's "
                    "folder",
                    trace, format == Format::kJson ? "json" : "csv"));
  }
  const std::vector<std::filesystem::path> ranks = multigpu::read_ranks_file(trace);
  std::vector<std::filesystem::path> folders;
  for (const std::filesystem::path& folder : ranks) {
    if (std::find(folders.begin(), folders.end(), folder) != folders.end()) continue;
    folders.push_back(folder);
    std::vector<std::uint32_t> of;
    for (std::uint32_t r = 0; r < ranks.size(); ++r)
      if (ranks[r] == folder) of.push_back(r);
    fmt::print("== ranks {}: {}\n", traces::format_ranks(of), folder.string());
    print_info(folder.string(), top, format);
  }
  fmt::print("{} ranks, {} distinct trace(s)\n", ranks.size(), folders.size());
}

void print_info(const std::string& trace, std::size_t top, Format format) {
  if (multigpu::is_system_trace(trace)) return print_system_info(trace, top, format);
  auto workload = traces::open_accelsim_workload(trace);
  const std::size_t collectives = workload->collective_count();
  const std::vector<traces::KernelSummary> kernels = traces::summarize(*workload);
  if (format == Format::kJson) return print_json(trace, kernels);
  if (format == Format::kCsv) return print_csv(kernels);
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
  const std::vector<std::pair<std::string, std::uint64_t>> sorted = by_count(mix);
  fmt::print("total: {} kernels{}, {} warp instructions\nopcode mix (top {}):\n", kernels.size(),
             collectives == 0 ? "" : fmt::format(" and {} collectives", collectives), total,
             std::min(top, sorted.size()));
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
  auto format = std::make_shared<Format>(Format::kTable);
  CLI::App* info = cmd->add_subcommand(
      "info", "Print kernels, launch shapes, instruction counts and the opcode mix");
  info->add_option("trace", *trace,
                   "kernelslist.g, a folder holding one, or a multi-GPU folder holding a ranks.g")
      ->required();
  info->add_option("--top", *top, "opcodes to list (table only; json lists all)")
      ->capture_default_str();
  add_format_option(*info, *format);
  info->callback([trace, top, format] { print_info(*trace, *top, *format); });
}

}  // namespace sassim::cli
