// `sassim workload NAME [--phase decode|prefill] [--batch B] [--context L] [--draft K]
// [--hidden H] [--heads N] [--kv-heads N] [--ffn F] [--experts E] [--top-k K]
// [--gemm auto|tiled|skinny|ws] [--attention cuda|tc] [--tp N] [--ep N] [--arch sm_XY]
// [--listings DIR] [-o DIR] [--plain] [--check] [--plan]`: a whole decoder layer executed on the
// CPU over one device memory and written as one trace folder, its launches in stream order
// (docs/LLM.md). With --tp N, one rank's shard in OUT/rank-0 with its all-reduces, and
// OUT/ranks.g naming it for all N ranks; with --ep N (moe-layer), rank r's trace in
// OUT/rank-r with its all-to-alls, and OUT/ranks.g naming them (docs/MULTIGPU.md).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ground/error.h"
#include "multigpu/ranks_file.h"
#include "sim/cli/commands.h"
#include "sim/cli/paths.h"
#include "sim/cli/workload_ep.h"
#include "traces/emu/workload/expert_parallel.h"
#include "traces/emu/workload/layer_capture.h"
#include "traces/emu/workload/layer_plan.h"
#include "traces/emu/workload/tensor_parallel.h"
#include "traces/trace_listings.h"

namespace sassim::cli {
namespace {

namespace wl = emu::workload;

struct WorkloadCliOptions {
  std::string name;
  std::string phase = "decode";
  std::string gemm = "auto";
  std::string attention = "cuda";
  wl::LayerOptions layer;
  std::string arch = "sm_90";
  std::string listings;
  std::string out;
  bool plain = false;
  bool check = false;
  bool plan_only = false;
  bool quiet = false;
  std::string moe_options;  // "--experts" / "--top-k" when given
};

int parse_arch(const std::string& text) {
  const std::string digits = text.rfind("sm_", 0) == 0 ? text.substr(3) : text;
  int v = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9' || digits.size() > 3) v = -1;
    if (v >= 0) v = v * 10 + (c - '0');
  }
  if (digits.empty() || v < 0) {
    throw Error(fmt::format("--arch {}: expected sm_80, sm_86, sm_89 or sm_90", text));
  }
  return v;
}

std::filesystem::path listings_folder(const WorkloadCliOptions& o) {
  if (o.listings.empty()) return sassim_home() / "kernels/sass";
  for (const std::filesystem::path& path : data_path_candidates(o.listings)) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return path;
  }
  throw Error(
      fmt::format("--listings {}: not a folder (expected one holding sm_XY/KERNEL.sass, "
                  "like kernels/sass)",
                  o.listings));
}

// Every rank's plan: one, or o.layer.ep with --ep.
std::vector<wl::LayerPlan> make_plans(WorkloadCliOptions& o) {
  const bool moe = o.name == wl::kMoeLayer;
  if (!moe && o.name != wl::kDenseLayer) {
    throw Error(fmt::format("workload {}: unknown workload: expected {} or {}", o.name,
                            wl::kDenseLayer, wl::kMoeLayer));
  }
  if (!moe && !o.moe_options.empty()) {
    throw Error(fmt::format("{}: only moe-layer has experts (workload {} is dense)", o.moe_options,
                            o.name));
  }
  if (o.phase == "decode") {
    o.layer.phase = wl::Phase::kDecode;
  } else if (o.phase == "prefill") {
    o.layer.phase = wl::Phase::kPrefill;
  } else {
    throw Error(fmt::format("--phase {}: expected decode or prefill", o.phase));
  }
  if (o.gemm == "auto") {
    o.layer.gemm = wl::GemmChoice::kAuto;
  } else if (o.gemm == "tiled") {
    o.layer.gemm = wl::GemmChoice::kTiled;
  } else if (o.gemm == "skinny") {
    o.layer.gemm = wl::GemmChoice::kSkinny;
  } else if (o.gemm == "ws") {
    o.layer.gemm = wl::GemmChoice::kWarpSpecialised;
  } else {
    throw Error(fmt::format("--gemm {}: expected auto, tiled, skinny or ws", o.gemm));
  }
  if (o.attention == "cuda") {
    o.layer.attention = wl::AttentionChoice::kCudaCores;
  } else if (o.attention == "tc") {
    o.layer.attention = wl::AttentionChoice::kTensorCores;
  } else {
    throw Error(fmt::format("--attention {}: expected cuda or tc", o.attention));
  }
  o.layer.sm_version = parse_arch(o.arch);
  if (moe && o.layer.ep != 1) return wl::plan_ep_ranks(o.layer);
  return {moe ? wl::plan_moe_layer(o.layer) : wl::plan_dense_layer(o.layer)};
}

void print_plan(const wl::LayerPlan& plan) {
  const std::vector<uint64_t> addresses = wl::tensor_addresses(plan);
  fmt::print("tensors ({:.1f} MiB):\n", static_cast<double>(plan.total_bytes()) / (1 << 20));
  for (size_t i = 0; i < plan.tensors.size(); ++i) {
    const wl::Tensor& t = plan.tensors[i];
    fmt::print("  {:2} {:<22} {:<28} {:>12} bytes at 0x{:x}\n", i, t.name, t.shape, t.bytes,
               addresses[i]);
  }
  fmt::print("launches (stream 0, in order):\n");
  for (size_t i = 0; i < plan.launches.size(); ++i) {
    const wl::PlannedLaunch& l = plan.launches[i];
    std::string args;
    const auto a = l.launch.arguments();
    for (size_t j = 0; j < a.size(); ++j) {
      const wl::Binding& b = l.bindings[j];
      if (b.tensor < 0) continue;
      args += fmt::format("{}{}={}", args.empty() ? "" : " ", a[j].name,
                          plan.tensors[static_cast<size_t>(b.tensor)].name);
      if (b.offset != 0) args += fmt::format("+{}", b.offset);
    }
    fmt::print("  {:2} {:<18} {:<25} {}\n", i + 1, l.step, l.kernel, args);
    for (const wl::PlannedCollective& c : plan.collectives) {
      if (c.after == i)
        fmt::print("     {:<18} {}\n", c.step, traces::format_collective_line(c.command));
    }
  }
}

// With --tp: what each rank holds and the all-reduces between them.
void print_tensor_parallel(const wl::LayerPlan& plan) {
  const wl::LayerOptions& L = plan.options;
  if (L.tp == 1) return;
  fmt::print(
      "tensor parallel over {} GPUs: each rank holds heads {} (KV {}) and ffn {}; {} all-reduces "
      "of {} x {} BF16 ({} bytes) after {}\n",
      L.tp, L.heads, L.kv_heads, L.ffn, plan.collectives.size(), plan.tokens, L.hidden,
      plan.collectives.empty() ? 0 : plan.collectives.front().command.bytes,
      plan.collectives.size() == 2
          ? fmt::format("{} and {}", plan.launches[plan.collectives[0].after].step,
                        plan.launches[plan.collectives[1].after].step)
          : std::string("the row-parallel projections"));
}

void run_workload(WorkloadCliOptions& o) {
  std::vector<wl::LayerPlan> plans = make_plans(o);
  const wl::LayerPlan& plan = plans.front();
  const wl::LayerOptions& L = plan.options;
  const std::string gemm = plan.launches.at(1).kernel;
  fmt::print(
      "{} {}: batch {}, context {}{}, hidden {}, heads {} (KV {}), head dim 128, ffn {}, "
      "sm_{}\n",
      o.name, o.phase, o.layer.batch, L.context,
      L.draft == 0
          ? ""
          : fmt::format(", draft {} (verifies {} token rows per sequence)", L.draft, L.draft + 1),
      L.hidden, L.heads, L.kv_heads, L.ffn, L.sm_version);
  const bool skinny = gemm.rfind("skinny_gemm", 0) == 0;
  const uint32_t row_tile = plan.gemm_row_tile;
  const std::string tokens = fmt::format("{} token{}", plan.tokens, plan.tokens == 1 ? "" : "s");
  if (plan.padded_rows == plan.tokens) {
    fmt::print("GEMMs ({}): M = {}, {}\n", gemm, tokens,
               skinny ? "no padding rows" : fmt::format("a multiple of the {}-row tile", row_tile));
  } else {
    fmt::print(
        "GEMMs ({}): M = {} padded to {} rows ({}; the padding rows are zeros and are "
        "computed)\n",
        gemm, tokens, plan.padded_rows,
        skinny ? std::string("skinny_gemm computes 1, 2, 4 or 8 rows")
               : fmt::format("its {}-row tile", row_tile));
  }
  print_tensor_parallel(plan);
  if (L.ep != 1) print_expert_parallel(plans);
  if (plan.workload == wl::kMoeLayer) {
    const uint64_t rows =
        plan.tensors.at(static_cast<size_t>(plan.tensor("moe.sorted_ids"))).bytes / 4;
    fmt::print(
        "experts: {} of {} per token (moe_grouped_gemm, BF16): {} (token, expert) pairs, each "
        "expert's rows padded to whole 64-row tiles: at most {} rows ({} tiles; the tiles past "
        "the padded total are skipped){}\n",
        L.top_k, L.experts, uint64_t{plan.tokens} * L.top_k, rows, rows / 64,
        L.ep == 1 ? "" : fmt::format(" for a rank's {} experts", L.experts / L.ep));
  }
  if (o.plan_only) {
    if (L.ep != 1) fmt::print("rank 0 (the others differ in their experts and input rows):\n");
    print_plan(plan);
    return;
  }
  wl::LayerCaptureOptions options;
  // With --tp, rank 0's shard stands for every rank.
  const std::string rank_folder = "rank-0";
  const std::filesystem::path trace_folder = o.out.empty() || L.tp == 1
                                                 ? std::filesystem::path(o.out)
                                                 : std::filesystem::path(o.out) / rank_folder;
  options.trace_folder = trace_folder;
  options.compression = o.plain ? traces::Compression::kNone : traces::Compression::kZstd;
  options.listings = listings_folder(o);
  options.check = o.check;
  const bool tty = !o.quiet && isatty(fileno(stderr)) != 0;
  auto last = std::chrono::steady_clock::now();
  if (tty) {
    options.progress = [&](size_t launch, uint64_t done, uint64_t total) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::milliseconds(200) && done != total) return;
      last = now;
      fmt::print(stderr, "\r\033[Klaunch {} of {} ({}): {} of {} CTAs", launch + 1,
                 plan.launches.size(), plan.launches[launch].step, done, total);
      std::fflush(stderr);
    };
  }
  if (L.ep != 1) {
    options.trace_folder = o.out;
    capture_expert_parallel(plans, options, o.name + " " + o.phase, [tty] {
      if (tty) fmt::print(stderr, "\r\033[K");
    });
    return;
  }
  std::vector<wl::LaunchReport> reports;
  const auto start = std::chrono::steady_clock::now();
  try {
    wl::capture_layer(plan, options, reports);
  } catch (const Error&) {
    if (tty) fmt::print(stderr, "\r\033[K");
    throw;
  }
  if (tty) fmt::print(stderr, "\r\033[K");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t insts = 0;
  std::set<std::string> listings;
  for (size_t i = 0; i < reports.size(); ++i) {
    const wl::PlannedLaunch& l = plan.launches[i];
    const wl::LaunchReport& r = reports[i];
    insts += r.result.warp_insts;
    listings.insert(r.listing.string());
    fmt::print("  {:2} {:<18} {:<25} {:>6} CTAs {:>12} warp insts {:8.2f} s{}\n", i + 1, l.step,
               l.kernel, r.result.ctas, r.result.warp_insts, r.seconds,
               r.check.empty() ? "" : "  " + r.check);
  }
  fmt::print("captured {} launches: {} warp instructions in {:.2f} s{}\n", reports.size(), insts,
             seconds,
             o.out.empty() ? "; no trace written (-o FOLDER writes one)"
                           : fmt::format(" -> {}/kernelslist.g", trace_folder.string()));
  if (!o.out.empty()) {
    // The folder keeps the listings, so that it replays by their control bits as it is.
    traces::store_listings(trace_folder, {listings.begin(), listings.end()});
    fmt::print("listings: {} kept in {}/{}\n", listings.size(), trace_folder.string(),
               traces::kListingsFolder);
    if (L.tp == 1) {
      fmt::print("replay: sassim run {} -c h200\n", o.out);
      return;
    }
    wl::write_collectives(trace_folder, plan);
    multigpu::write_ranks_file(
        o.out,
        fmt::format("{} {}, tensor parallel over {} GPUs: every rank replays {}", o.name, o.phase,
                    L.tp, rank_folder),
        std::vector<std::string>(L.tp, rank_folder));
    fmt::print("ranks: {}/{} ({} ranks of {}; {} all-reduces)\n", o.out, multigpu::kRanksFile, L.tp,
               rank_folder, plan.collectives.size());
    fmt::print("replay: sassim run {} --system h200x8\n", o.out);
  }
}

}  // namespace

void add_workload_command(CLI::App& app) {
  auto o = std::make_shared<WorkloadCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "workload",
      "Execute a whole LLM decoder layer's SASS on the CPU and write it as one trace folder");
  cmd->add_option("name", o->name,
                  "dense-layer (Llama 3 8B's layer by default) or moe-layer (Mixtral 8x7B's)")
      ->required();
  cmd->add_option(
      "--phase", o->phase,
      "decode (one new token per sequence) or prefill (a prompt of --context tokens per sequence)");
  cmd->add_option("--batch", o->layer.batch,
                  "sequences: one new token each (decode) or one prompt each (prefill); default 1");
  cmd->add_option("--context", o->layer.context,
                  "decode: tokens the new one attends to, itself included; prefill: the prompt's "
                  "tokens, a multiple of 64 (default 4096)");
  cmd->add_option("--draft", o->layer.draft,
                  "decode: draft tokens each sequence verifies (speculative decoding), 1 to 15: "
                  "every step takes batch x (draft + 1) token rows and the attention is "
                  "spec_verify_attention; default 0, a plain decode step");
  cmd->add_option("--hidden", o->layer.hidden, "hidden size (default 4096)");
  cmd->add_option("--heads", o->layer.heads, "query heads, head dim 128 (default 32)");
  cmd->add_option("--kv-heads", o->layer.kv_heads, "KV heads (default 8)");
  cmd->add_option("--ffn", o->layer.ffn, "FFN (intermediate) size (default 14336)");
  cmd->add_option("--experts", o->layer.experts,
                  "moe-layer: experts, 1 to 64 (default 8, Mixtral 8x7B's)");
  cmd->add_option("--top-k", o->layer.top_k,
                  "moe-layer: experts per token, 1 to --experts (default 2)");
  cmd->add_option("--model-layers", o->layer.model_layers,
                  "layers of the model, for `run`'s tokens per second (default 32)");
  cmd->add_option("--tp", o->layer.tp,
                  "tensor-parallel GPUs: one rank's shard and its all-reduces, replayed with "
                  "--system (default 1)");
  cmd->add_option("--ep", o->layer.ep,
                  "moe-layer: expert-parallel GPUs, 2 to --experts, dividing --experts and "
                  "--batch: each rank runs batch / N sequences and experts / N experts, with "
                  "all-to-alls between them; a folder per rank, replayed with --system "
                  "(default 1)");
  cmd->add_option("--gemm", o->gemm,
                  "the projections' GEMM: skinny (skinny_gemm_mM on the CUDA cores, a decode "
                  "step of at most 8 tokens), tiled (the 128 x 128 tensor-core tile), ws "
                  "(sm_90: bf16_gemm_wgmma's warp-specialised twin bf16_gemm_ws, 128 x 256 tiles "
                  "in clusters of two) or auto (skinny where it runs; default)");
  cmd->add_option("--attention", o->attention,
                  "a decode step's attention: cuda (decode_attention, the group's heads on the "
                  "CUDA cores; default) or tc (decode_attention_tc, on the tensor cores)");
  cmd->add_option("--arch", o->arch,
                  "listings: sm_90 (tiled GEMM: bf16_gemm_wgmma from sm_90a; default) or sm_80, "
                  "sm_86, sm_89 (tiled GEMM: hgemm_mma)");
  cmd->add_option("--listings", o->listings,
                  "folder holding sm_XY/KERNEL.sass (default: the data home's kernels/sass)");
  cmd->add_option("-o,--out", o->out, "folder for kernelslist.g and kernel-N.traceg.zst");
  cmd->add_flag("--plain", o->plain, "write kernel-N.traceg as text, not zstd-compressed");
  cmd->add_flag("--check", o->check,
                "compare each launch's outputs with its CPU reference on the inputs it read");
  cmd->add_flag("--plan", o->plan_only,
                "print the tensors (sizes, addresses) and launches (bindings); capture nothing");
  cmd->add_flag("-q,--quiet", o->quiet, "no progress display");
  cmd->callback([o, cmd] {
    for (const char* name : {"--experts", "--top-k", "--ep"}) {
      if (cmd->count(name) == 0) continue;
      o->moe_options += (o->moe_options.empty() ? "" : ", ") + std::string(name);
    }
    run_workload(*o);
  });
}

}  // namespace sassim::cli
