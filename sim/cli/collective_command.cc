// `sassim collective --system PRESET|FILE --op OP [--bytes MIN:MAX] [--step-factor F]
// [--dtype T] [--algo A] [--proto P] [--gpus N] [--format F]`: simulated collectives on a
// multi-GPU system (system/, docs/MULTIGPU.md), printed as nccl-tests prints them.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ground/error.h"
#include "sim/cli/collective_json.h"
#include "sim/cli/commands.h"
#include "sim/cli/output_format.h"
#include "system/collective.h"
#include "system/system_config_loader.h"
#include "system/system_model.h"

namespace sassim::cli {
namespace {

struct CollectiveOptions {
  std::string system;
  std::vector<std::string> system_overrides;
  std::string op;
  std::string bytes = "8:8G";
  uint64_t step_factor = 2;
  std::string dtype = "fp32";
  std::string algo = "auto";
  std::string proto = "auto";
  uint32_t gpus = 0;  // 0: every GPU of the system
  Format format = Format::kTable;
};

// "8", "64K", "1M", "8G" (powers of 1024, as nccl-tests reads -b and -e).
uint64_t parse_size(const std::string& text) {
  std::size_t used = 0;
  uint64_t value = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || text[0] == '-') {
    throw UsageError(fmt::format("--bytes: '{}' is not a size (e.g. 8, 64K, 1M, 8G)", text));
  }
  const std::string suffix = text.substr(used);
  int shift = 0;
  if (suffix == "K" || suffix == "k")
    shift = 10;
  else if (suffix == "M" || suffix == "m")
    shift = 20;
  else if (suffix == "G" || suffix == "g")
    shift = 30;
  else if (!suffix.empty()) {
    throw UsageError(
        fmt::format("--bytes: '{}' has an unknown unit '{}' (K, M or G)", text, suffix));
  }
  if (value == 0 || value > (uint64_t{1} << (40 - shift))) {
    throw UsageError(fmt::format("--bytes: '{}' is outside 1 byte to 1T", text));
  }
  return value << shift;
}

template <typename T, typename Parse>
T parse_choice(const std::string& text, const char* option, const char* accepted, Parse parse) {
  const auto value = parse(text);
  if (!value)
    throw UsageError(fmt::format("{}: unknown value '{}' (accepted: {})", option, text, accepted));
  return *value;
}

system::CollectiveCall make_call(const CollectiveOptions& o, uint32_t gpu_count) {
  system::CollectiveCall call;
  call.op = parse_choice<system::CollectiveOp>(
      o.op, "--op", "all_reduce, all_gather, reduce_scatter, alltoall, sendrecv", system::parse_op);
  if (call.op == system::CollectiveOp::kSend) {
    throw UsageError(
        "--op: unknown value 'send' (accepted: all_reduce, all_gather, "
        "reduce_scatter, alltoall, sendrecv)");
  }
  call.type = parse_choice<system::DataType>(o.dtype, "--dtype", "bf16, fp16, fp32",
                                             system::parse_data_type);
  call.algorithm = parse_choice<system::Algorithm>(o.algo, "--algo", "auto, ring, tree, nvls",
                                                   system::parse_algorithm);
  if (call.algorithm == system::Algorithm::kP2p) {
    throw UsageError("--algo: unknown value 'p2p' (accepted: auto, ring, tree, nvls)");
  }
  call.protocol = parse_choice<system::Protocol>(o.proto, "--proto", "auto, ll, ll128, simple",
                                                 system::parse_protocol);
  if (o.gpus > gpu_count) {
    throw UsageError(fmt::format("--gpus {}: the system has {} GPUs", o.gpus, gpu_count));
  }
  for (uint32_t r = 0; r < (o.gpus == 0 ? gpu_count : o.gpus); ++r) call.ranks.push_back(r);
  return call;
}

// The sizes from MIN to MAX, each step-factor times the last (nccl-tests' -b, -e, -f).
std::vector<uint64_t> sizes_of(const CollectiveOptions& o) {
  const std::size_t colon = o.bytes.find(':');
  const uint64_t low = parse_size(o.bytes.substr(0, colon));
  const uint64_t high = colon == std::string::npos ? low : parse_size(o.bytes.substr(colon + 1));
  if (high < low) throw UsageError(fmt::format("--bytes {}: MAX is below MIN", o.bytes));
  if (o.step_factor < 2 && low != high) throw UsageError("--step-factor must be at least 2");
  std::vector<uint64_t> sizes;
  for (uint64_t size = low; size <= high; size *= o.step_factor) {
    sizes.push_back(size);
    if (size > high / o.step_factor) break;
  }
  return sizes;
}

// The call for one size of the sweep.
system::CollectiveCall sized(system::CollectiveCall call, uint64_t size) {
  // As nccl-tests: whole elements, and for the ops that split the buffer over the ranks
  // a whole number of elements per rank.
  const uint64_t unit =
      system::size_of(call.type) *
      (call.op == system::CollectiveOp::kAllReduce || call.op == system::CollectiveOp::kSendRecv
           ? 1
           : call.ranks.size());
  call.bytes = size / unit * unit;
  if (call.bytes == 0) call.bytes = unit;
  return call;
}

Record record_of(const system::CollectiveCall& call, const system::CollectiveResult& r,
                 const system::SystemModel& model, bool with_detail) {
  Record rec{{"size_bytes", Value(call.bytes)},
             {"count", Value(call.bytes / system::size_of(call.type))},
             {"type", Value(std::string(system::name_of(call.type)))},
             {"time_us", Value(static_cast<double>(r.time_ps) * 1e-6)},
             {"algbw_gb_per_s", Value(r.algbw_gb_per_s)},
             {"busbw_gb_per_s", Value(r.busbw_gb_per_s)},
             {"algorithm", Value(std::string(system::name_of(r.algorithm)))},
             {"protocol", Value(std::string(system::name_of(r.protocol)))},
             {"channels", Value(uint64_t{r.channels})},
             {"sms_per_gpu", Value(uint64_t{r.gpus.empty() ? 0u : r.gpus.front().sms})}};
  if (!with_detail) return rec;
  rec.emplace_back("links", JsonText{links_json(model.topology(), r)});
  rec.emplace_back("gpus", JsonText{gpu_sides_json(r)});
  return rec;
}

void run_collective(const CollectiveOptions& o) {
  const system::SystemModel model(system::load_system_config(o.system, o.system_overrides));
  const system::CollectiveCall call = make_call(o, model.gpu_count());
  const std::vector<uint64_t> sizes = sizes_of(o);
  const std::string op(system::name_of(call.op));
  if (o.format == Format::kTable) {
    fmt::print("# sassim collective: {} on {} ({} of {} GPUs, {} node(s))\n", op,
               model.config().name(), call.ranks.size(), model.gpu_count(), model.config().nodes());
    fmt::print("#{:>14} {:>13} {:>6} {:>11} {:>11} {:>11} {:>10} {:>9} {:>9}\n", "size(B)", "count",
               "type", "time(us)", "algbw(GB/s)", "busbw(GB/s)", "algorithm", "protocol",
               "channels");
  }
  if (o.format == Format::kJson) {
    fmt::print("{{\"system\": {}, \"op\": {}, \"ranks\": {}, \"results\": [",
               json_quote(model.config().name()), json_quote(op), call.ranks.size());
  }
  bool first = true;
  for (uint64_t size : sizes) {
    const system::CollectiveCall shown = sized(call, size);
    const system::CollectiveResult r = model.run(shown);
    switch (o.format) {
      case Format::kTable:
        fmt::print("{:>15} {:>13} {:>6} {:>11.2f} {:>11.2f} {:>11.2f} {:>10} {:>9} {:>9}\n",
                   shown.bytes, shown.bytes / system::size_of(call.type),
                   system::name_of(call.type), static_cast<double>(r.time_ps) * 1e-6,
                   r.algbw_gb_per_s, r.busbw_gb_per_s, system::name_of(r.algorithm),
                   system::name_of(r.protocol), r.channels);
        break;
      case Format::kJson:
        fmt::print("{}\n  {}", first ? "" : ",", json_object(record_of(shown, r, model, true)));
        break;
      case Format::kCsv: {
        const Record rec = record_of(shown, r, model, false);
        if (first) fmt::print("{}\n", csv_header(rec));
        fmt::print("{}\n", csv_row(rec));
        break;
      }
    }
    first = false;
  }
  if (o.format == Format::kJson) fmt::print("\n]}}\n");
}

}  // namespace

void add_collective_command(CLI::App& app) {
  auto o = std::make_shared<CollectiveOptions>();
  CLI::App* cmd = app.add_subcommand(
      "collective", "Simulate NCCL collectives on a multi-GPU system (an nccl-tests table)");
  cmd->add_option("--system", o->system, "system preset (configs/systems) or file")->required();
  cmd->add_option("--system-set", o->system_overrides,
                  "override a field of the system config: PATH=VALUE (repeatable)")
      ->type_name("PATH=VALUE")
      ->allow_extra_args(false);
  cmd->add_option("--op", o->op, "all_reduce, all_gather, reduce_scatter, alltoall or sendrecv")
      ->required();
  cmd->add_option("--bytes", o->bytes, "sizes MIN:MAX or one SIZE (K, M, G suffixes; default 8:8G)")
      ->type_name("MIN:MAX");
  cmd->add_option("--step-factor", o->step_factor, "each size is this times the last (default 2)");
  cmd->add_option("--dtype", o->dtype, "bf16, fp16 or fp32 (default fp32)");
  cmd->add_option("--algo", o->algo, "auto (NCCL's choice), ring, tree or nvls");
  cmd->add_option("--proto", o->proto, "auto (NCCL's choice), ll, ll128 or simple");
  cmd->add_option("--gpus", o->gpus, "use the first N GPUs (default all)");
  add_format_option(*cmd, o->format);
  cmd->callback([o] { run_collective(*o); });
}

}  // namespace sassim::cli
