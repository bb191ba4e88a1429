#include "sim/cli/run_system.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "configs/peaks.h"
#include "ground/error.h"
#include "multigpu/system_report.h"
#include "multigpu/system_run.h"
#include "sim/cli/commands.h"
#include "sim/cli/output_check.h"
#include "sim/cli/progress.h"
#include "sim/cli/stop_signals.h"
#include "sim/cli/system_json.h"
#include "sim/hdf5_writer.h"
#include "system/system_config_loader.h"
#include "traces/collective_line.h"
#include "traces/workload_info.h"

namespace sassim::cli {
namespace {

// OUT.h5 -> OUT.rankR.h5 for the player whose first rank is R.
std::string player_out(const std::string& out, std::uint32_t rank) {
  std::filesystem::path path(out);
  const std::string extension = path.extension().string();
  path.replace_extension();
  return fmt::format("{}.rank{}{}", path.string(), rank, extension);
}

}  // namespace

void run_system_trace(const SystemRunArgs& args) {
  if (!args.out.empty()) check_results_path(args.out);
  const config::SystemConfig system_config =
      system::load_system_config(args.system, args.system_overrides);
  const system::SystemModel model(system_config);
  const multigpu::SystemPlan plan = multigpu::plan_system_run(args.trace, model);
  const config::GpuConfig gpu = config::load_config(system_config.gpu_preset(), args.overrides);
  if (gpu.has_energy() && gpu.energy().power_cap()) {
    throw Error(
        "energy.power_cap with --system: the GPUs of a system run at their configured clock "
        "(the cap searches one GPU's clock)");
  }
  std::FILE* notes = args.json ? stderr : stdout;
  fmt::print(notes,
             "system {}: {} ranks, {} distinct trace(s), {} collectives; GPUs: {} ({} SMs, {} "
             "MHz)\n",
             system_config.name(), plan.rank_folders.size(), plan.folders.size(),
             plan.instances.size(), gpu.name(), gpu.num_sms(), gpu.clocks().core_mhz());
  std::fflush(stdout);
  multigpu::SystemResult result;
  int signal = 0;
  {
    const StopOnSignals signals;
    Progress progress(Progress::mode_for_stderr(!args.quiet),
                      std::chrono::seconds(args.progress_every));
    result = multigpu::run_system(plan, gpu,
                                  {args.threads, [] { return stop_signal() != 0; },
                                   [&](const sim::ProgressEvent& e) { progress.update(e); }});
    signal = result.stopped ? stop_signal() : 0;
  }
  if (signal != 0) {
    fmt::print(stderr, "sassim: stopped by {}; the kernels finished so far follow\n",
               signal == SIGINT ? "SIGINT" : "SIGTERM");
  }
  const std::optional<traces::WorkloadInfo> layer =
      traces::read_workload_info(plan.folders.front());
  if (args.json) {
    fmt::print("{}\n", system_json(system_config, model.topology(), result, layer));
  } else {
    multigpu::print_system_summary(stdout, system_config, result, layer);
  }
  if (!args.out.empty()) {
    for (const multigpu::PlayerResult& p : result.players) {
      const std::string file = player_out(args.out, p.ranks.front());
      sim::RunInfo info{p.folder.string(),
                        system_config.gpu_preset(),
                        config::to_text(gpu),
                        gpu.num_sms(),
                        signal != 0,
                        "off",
                        0,
                        config::gpu_peaks(gpu)};
      sim::write_hdf5(file, info, p.kernels);
      fmt::print(notes, "results of ranks {} written to {}\n", traces::format_ranks(p.ranks), file);
    }
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  fmt::print(notes, "peak memory {:.1f} MiB\n", static_cast<double>(usage.ru_maxrss) / 1024.0);
  if (signal != 0) throw ExitStatus{128 + signal};
}

}  // namespace sassim::cli
