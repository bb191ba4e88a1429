// The replays of scripts/tsan.sh and scripts/asan.sh without the command line's code
// (its parsers and CLI11 are most of a sanitizer build's time): one trace on one GPU
// preset, or a multi-GPU folder on a system preset, on N host threads. Exit 0 when the
// replay ran, 1 with the error on stderr otherwise.
//   sanitizer_replay TRACE --config PRESET [--threads N]
//   sanitizer_replay DIR --system PRESET [--threads N]
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "configs/config_loader.h"
#include "multigpu/system_run.h"
#include "sim/gpu.h"
#include "system/system_config_loader.h"
#include "traces/accelsim_reader.h"

namespace {

int usage() {
  std::fputs("usage: sanitizer_replay TRACE (--config PRESET | --system PRESET) [--threads N]\n",
             stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || argc % 2 != 0) return usage();
  const std::string trace = argv[1];
  std::string config, system;
  unsigned threads = 1;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string_view option = argv[i];
    if (option == "--config") {
      config = argv[i + 1];
    } else if (option == "--system") {
      system = argv[i + 1];
    } else if (option == "--threads") {
      threads = static_cast<unsigned>(std::strtoul(argv[i + 1], nullptr, 10));
    } else {
      return usage();
    }
  }
  if (config.empty() == system.empty() || threads == 0) return usage();
  try {
    if (!system.empty()) {
      const sassim::system::SystemModel model(sassim::system::load_system_config(system));
      const sassim::multigpu::SystemPlan plan = sassim::multigpu::plan_system_run(trace, model);
      sassim::multigpu::SystemRunOptions options;
      options.threads = threads;
      const auto result = sassim::multigpu::run_system(
          plan, sassim::config::load_config(model.config().gpu_preset()), options);
      std::printf("%s: %zu players, step %llu ps\n", trace.c_str(), result.players.size(),
                  static_cast<unsigned long long>(result.end));
      return 0;
    }
    sassim::sim::Gpu gpu(sassim::config::load_config(config));
    gpu.set_threads(threads);
    const auto results = gpu.run(*sassim::traces::open_accelsim_workload(trace));
    std::printf("%s: %zu kernels, %llu cycles\n", trace.c_str(), results.size(),
                static_cast<unsigned long long>(gpu.core_cycle()));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sanitizer_replay: %s\n", e.what());
    return 1;
  }
}
