// `sassim run TRACE [--config PRESET|FILE] [--set PATH=VALUE]... [--sass LISTING]...
// [--out FILE.h5] [--threads N] [--format table|json|csv]`
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "configs/config_loader.h"
#include "configs/derived.h"
#include "configs/peaks.h"
#include "ground/error.h"
#include "isa/arch.h"
#include "multigpu/ranks_file.h"
#include "sim/cli/commands.h"
#include "sim/cli/listing_match.h"
#include "sim/cli/output_check.h"
#include "sim/cli/output_format.h"
#include "sim/cli/paths.h"
#include "sim/cli/progress.h"
#include "sim/cli/run_output.h"
#include "sim/cli/run_system.h"
#include "sim/cli/stop_signals.h"
#include "sim/gpu.h"
#include "sim/hdf5_writer.h"
#include "sim/kernel_sampler.h"
#include "sim/power_cap.h"
#include "sim/report.h"
#include "sim/sampling_report.h"
#include "sim/workload_report.h"
#include "system/system_config_loader.h"
#include "traces/accelsim_reader.h"
#include "traces/sass/listing.h"
#include "traces/tokens.h"
#include "traces/trace_listings.h"
#include "traces/workload_info.h"

namespace sassim::cli {
namespace {

struct RunOptions {
  std::string trace;
  std::string config;
  std::vector<std::string> overrides;
  std::vector<std::string> listings;
  std::string out;
  unsigned threads = 0;          // 0: one per host core
  unsigned progress_every = 30;  // seconds between progress lines when stderr is no terminal
  bool quiet = false;
  std::string sample = "off";  // sampling: off | kernels | ctas | all
  std::string system;          // a multi-GPU system preset or file
  std::vector<std::string> system_overrides;
  Format format = Format::kTable;
};

// --threads, else SASSIM_THREADS, else one per host core.
unsigned host_threads(unsigned asked) {
  if (asked != 0) return asked;
  if (const char* env = std::getenv("SASSIM_THREADS")) {
    const std::optional<std::uint64_t> n = traces::parse_dec_u64(env);
    if (!n || *n == 0 || *n > 1024) {
      throw Error(
          fmt::format("SASSIM_THREADS = '{}': expected a thread count from 1 to 1024", env));
    }
    return static_cast<unsigned>(*n);
  }
  return std::max(std::thread::hardware_concurrency(), 1u);
}

// The results on stdout in the asked format. In json and csv, the notes that go with the
// table (tensor use, CPI stacks) go to stderr.
void print_results(const RunOptions& options, const RunHeader& header,
                   const std::vector<sim::KernelResult>& results) {
  switch (options.format) {
    case Format::kTable:
      sim::print_summary(stdout, results);
      return;
    case Format::kJson:
      print_results_json(stdout, header, results);
      break;
    case Format::kCsv:
      print_results_csv(stdout, results);
      break;
  }
  sim::print_summary_notes(stderr, results);
}

// A trace compiled for one architecture replayed on another's config runs (its SASS is
// timed by the config's units) but is rarely meant: say so, naming both.
void warn_on_other_arch(traces::Workload& workload, const std::string& trace,
                        const std::string& config_name, const config::GpuConfig& gpu_config) {
  const std::optional<traces::KernelInfo> first = workload.first_kernel_info();
  const std::optional<isa::Arch> arch = isa::arch_from_name(gpu_config.arch());
  if (!first || !arch || first->arch == *arch) return;
  fmt::print(stderr,
             "sassim: warning: {} was compiled for {} (binary version {}); config '{}' is {} "
             "({})\n",
             trace, isa::arch_name(first->arch), first->binary_version, config_name,
             gpu_config.arch(), gpu_config.name());
}

// Thrown by a run's simulation when a signal stopped the run of an earlier clock.
struct StoppedRun {};

// The power cap's outcome, for people.
void print_power_cap(std::FILE* notes, const config::GpuConfig& config, const sim::CappedRun& run) {
  const config::EnergyConfig& e = config.energy();
  const std::string window = e.power_cap_window_us() > 0
                                 ? fmt::format("the busiest {} us", e.power_cap_window_us())
                                 : std::string("the whole run");
  fmt::print(notes, "power cap: board limit {} W over {}; at {} MHz the run drew {:.1f} W\n",
             e.board_power_limit_w(), window, config.clocks().core_mhz(), run.uncapped_power_w);
  if (run.cap.core_mhz == config.clocks().core_mhz() && run.cap.within) return;
  fmt::print(notes, "power cap: {} {} MHz, {:.1f} W ({} clocks simulated)\n",
             run.cap.within ? "the SM clock lowered: ran at"
                            : "no clock down to the floor holds the limit: ran at the lowest "
                              "tried,",
             run.cap.core_mhz, run.cap.power_w, run.cap.runs);
}

// A multi-GPU trace folder (a ranks.g) on a system: the options that apply to it checked.
void run_on_system(const RunOptions& options, const std::string& trace) {
  if (options.system.empty()) {
    throw Error(
        fmt::format("{}: a multi-GPU trace (it holds a ranks.g): give --system PRESET or "
                    "FILE (presets: {})",
                    trace, fmt::join(system::system_preset_names(), ", ")));
  }
  if (!multigpu::is_system_trace(trace)) {
    throw Error(
        fmt::format("{}: --system replays a multi-GPU trace folder, one holding a ranks.g "
                    "(docs/MULTIGPU.md); this holds none",
                    trace));
  }
  auto refuse = [](bool given, std::string_view option, std::string_view why) {
    if (given) throw Error(fmt::format("{} with --system: {}", option, why));
  };
  refuse(!options.config.empty(), "--config",
         "the system names its GPUs' preset (gpu_preset); change them with --set");
  refuse(options.sample != "off", "--sample", "sampling cannot run with collectives");
  refuse(!options.listings.empty(), "--sass", "each rank folder's kept listings are used");
  refuse(options.format == Format::kCsv, "--format csv", "expected table or json");
  run_system_trace({trace, options.system, options.system_overrides, options.overrides, options.out,
                    host_threads(options.threads), options.quiet, options.progress_every,
                    options.format == Format::kJson});
}

void run(const RunOptions& options) {
  const std::string trace = options.trace.empty() ? default_trace().string() : options.trace;
  if (options.system.empty() && !options.system_overrides.empty()) {
    throw Error("--system-set without --system: it overrides a field of the system config");
  }
  if (!options.system.empty() || multigpu::is_system_trace(trace)) {
    run_on_system(options, trace);
    return;
  }
  if (!options.out.empty()) check_results_path(options.out);
  const unsigned threads = host_threads(options.threads);
  // Notes for people: on stdout beside the table, on stderr when stdout is json or csv.
  std::FILE* notes = options.format == Format::kTable ? stdout : stderr;
  std::vector<traces::sass::Listing> listings;
  for (const std::string& file : options.listings) {
    listings.push_back(traces::sass::read_listing(file));
    fmt::print(notes, "listing {}: control bits for {} function(s)\n", file,
               listings.back().functions.size());
  }
  // The trace folder's own listings (`sassim workload` keeps them) come after --sass: a
  // function in both issues by the --sass listing's control bits.
  for (const std::filesystem::path& file : traces::stored_listings(trace)) {
    listings.push_back(traces::sass::read_listing(file));
    fmt::print(notes, "listing {} (kept in the trace folder): control bits for {} function(s)\n",
               file.string(), listings.back().functions.size());
  }
  auto workload = traces::open_accelsim_workload(trace);
  if (workload->collective_count() > 0) {
    throw Error(
        fmt::format("{}: {} collective(s): the trace is one rank of a multi-GPU trace; "
                    "replay the folder holding its ranks.g with --system PRESET",
                    trace, workload->collective_count()));
  }
  const std::optional<traces::WorkloadInfo> layer = traces::read_workload_info(trace);
  std::string config_name = options.config;
  if (config_name.empty()) {
    auto first = workload->first_kernel_info();
    if (!first) throw Error(fmt::format("{}: the trace holds no kernel launch", trace));
    config_name = config::preset_for_binary_version(first->binary_version);
    fmt::print(notes, "trace {}: binary version {}, using preset '{}'\n", trace,
               first->binary_version, config_name);
  }
  const config::GpuConfig gpu_config = config::load_config(config_name, options.overrides);
  warn_on_other_arch(*workload, trace, config_name, gpu_config);
  if (!listings.empty()) {
    report_listing_matches(listings, *traces::open_accelsim_workload(trace), notes);
  }
  fmt::print(notes, "simulating {} ({} SMs, {} MHz)\n", gpu_config.name(), gpu_config.num_sms(),
             gpu_config.clocks().core_mhz());
  // A standard output that cannot be written fails the run now, not after simulating.
  flush_stdout();

  std::optional<std::vector<sim::KernelSignature>> signatures;
  if (options.sample == "kernels" || options.sample == "all") {
    // A first pass over the traces finds each launch's signature.
    signatures = sim::workload_signatures(*traces::open_accelsim_workload(trace));
  }
  std::unique_ptr<sim::KernelSampler> sampler;
  const std::optional<std::size_t> kernels_total = workload->kernel_count();
  int stopped_by = 0;
  std::map<double, double> total_ci_at;  // sampling's interval of the total, by SM clock
  // The workload on config `c` (a power-capped run simulates it at several clocks).
  auto simulate = [&](const config::GpuConfig& c) {
    if (stopped_by != 0) throw StoppedRun{};  // a signal ended an earlier clock's run
    sim::Gpu gpu(c);
    gpu.set_threads(threads);
    gpu.set_sass_listings(listings);
    gpu.set_cta_sampling(options.sample == "ctas" || options.sample == "all");
    if (signatures) {
      sampler = std::make_unique<sim::KernelSampler>(*signatures, sim::SamplingOptions{});
      gpu.set_sampler(sampler.get());
    }
    auto replay = workload ? std::move(workload) : traces::open_accelsim_workload(trace);
    const StopOnSignals signals;
    Progress progress(Progress::mode_for_stderr(!options.quiet),
                      std::chrono::seconds(options.progress_every));
    std::vector<sim::KernelResult> results = gpu.run(
        *replay, [&](const sim::ProgressEvent& e) { progress.update(e); },
        [] { return cli::stop_signal() != 0; });
    stopped_by = gpu.stopped() ? cli::stop_signal() : 0;
    total_ci_at[c.clocks().core_mhz()] = sim::total_ci95_pct(results, sampler.get());
    return results;
  };
  if (signatures) {
    sampler = std::make_unique<sim::KernelSampler>(*signatures, sim::SamplingOptions{});
    fmt::print(notes, "sampling: {} kernel launches in {} classes\n", sampler->launches(),
               sampler->classes());
  }
  std::vector<sim::KernelResult> results;
  config::GpuConfig run_config = gpu_config;
  if (gpu_config.has_energy() && gpu_config.energy().power_cap()) {
    try {
      sim::CappedRun capped = sim::run_power_capped(gpu_config, simulate);
      print_power_cap(notes, gpu_config, capped);
      run_config = std::move(capped.config);
      results = std::move(capped.results);
    } catch (const StoppedRun&) {
      throw Error(
          "stopped by a signal while searching for the power-capped clock; "
          "nothing written");
    }
  } else {
    results = simulate(gpu_config);
  }
  if (stopped_by != 0) {
    fmt::print(stderr, "sassim: stopped by {} after {}{} kernels{}\n",
               stopped_by == SIGINT ? "SIGINT" : "SIGTERM", results.size(),
               kernels_total ? fmt::format(" of {}", *kernels_total) : "",
               options.out.empty()
                   ? ""
                   : fmt::format("; writing them to {}, marked partial", options.out));
  }
  // A failed write to stdout (a full disk) still leaves the results file written.
  const double total_ci = total_ci_at[run_config.clocks().core_mhz()];
  std::exception_ptr print_error;
  try {
    RunHeader header{trace, config_name, stopped_by != 0, std::nullopt};
    // A workload's figures per token, from a whole replay only.
    if (layer && stopped_by == 0)
      header.workload = {*layer, sim::workload_figures(*layer, results)};
    print_results(options, header, results);
    if (header.workload)
      sim::print_workload_summary(notes, header.workload->first, header.workload->second);
    if (options.sample != "off") sim::print_sampling_summary(notes, results, total_ci);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    fmt::print(notes, "peak memory {:.1f} MiB\n", static_cast<double>(usage.ru_maxrss) / 1024.0);
  } catch (const std::system_error&) {
    print_error = std::current_exception();
  }
  if (!options.out.empty()) {
    sim::RunInfo info{trace,
                      config_name,
                      config::to_text(run_config),
                      run_config.num_sms(),
                      stopped_by != 0,
                      options.sample,
                      total_ci,
                      config::gpu_peaks(run_config)};
    sim::write_hdf5(options.out, info, results);
    if (!print_error) {
      fmt::print(notes, "results written to {}{}\n", options.out,
                 stopped_by != 0 ? " (partial)" : "");
    }
  }
  if (print_error) std::rethrow_exception(print_error);
  if (stopped_by != 0) throw ExitStatus{128 + stopped_by};
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Replay a trace on a GPU model and print per-kernel results (with no TRACE: a bundled "
      "real V100 trace of Rodinia BFS)");
  cmd->add_option("trace", options->trace,
                  "kernelslist.g, a folder holding one, or one kernel-N.traceg[.xz|.zst]");
  cmd->add_option("-c,--config", options->config,
                  "preset name (v100, a100, h100, h200, rtx2060, rtx3070, gtx1080, ...) or config "
                  "file; default: the preset matching the trace's binary version");
  cmd->add_option("-s,--set", options->overrides,
                  "override a config field: PATH=VALUE (repeatable)")
      ->type_name("PATH=VALUE")
      ->allow_extra_args(false);  // one value per -s: a following trace stays positional
  cmd->add_option("--sass", options->listings,
                  "SASS listing (nvdisasm -c -hex or cuobjdump -sass); kernels named like one "
                  "of its functions issue by its control bits (repeatable)")
      ->type_name("LISTING")
      ->allow_extra_args(false);
  cmd->add_option("-o,--out", options->out,
                  "write results to this HDF5 file (with --system: OUT.rankR.h5 a distinct trace)");
  cmd->add_option("--system", options->system,
                  "multi-GPU system preset (h100x8, h200x8, a100x8, h200x16-2node) or file: "
                  "replays a trace folder holding a ranks.g (docs/MULTIGPU.md)");
  cmd->add_option("--system-set", options->system_overrides,
                  "override a field of the system config: PATH=VALUE (repeatable), e.g. "
                  "nvlink.gb_per_s_per_link=50")
      ->type_name("PATH=VALUE")
      ->allow_extra_args(false);
  cmd->add_option("-t,--threads", options->threads,
                  "host threads simulating the SMs (results are the same for any count); "
                  "default: SASSIM_THREADS, else one per core")
      ->check(CLI::Range(1u, 1024u));
  cmd->add_flag("-q,--quiet", options->quiet, "no progress display");
  add_format_option(*cmd, options->format);
  cmd->add_option("--progress-every", options->progress_every,
                  "when stderr is not a terminal (a log, a batch job): seconds between progress "
                  "lines (default 30)")
      ->type_name("SECONDS")
      ->check(CLI::Range(1u, 86400u));
  cmd->add_option("--sample", options->sample,
                  "sampling (docs/SAMPLING.md): off (default); kernels: launches with "
                  "matching signatures are estimated from the first ones simulated in detail; "
                  "ctas: once a kernel's CTA completion rate is stable, its CTAs but the last "
                  "wave are skipped; all: both")
      ->check(CLI::IsMember({"off", "kernels", "ctas", "all"}));
  cmd->callback([options] { run(*options); });
}

}  // namespace sassim::cli
