// `sassim correlate --sim RESULTS... --hw MEASUREMENTS... --out DIR`
#include <cstdio>
#include <memory>

#include <fmt/format.h>

#include "correlate/correlate.h"
#include "sim/cli/commands.h"

namespace sassim::cli {
namespace {

struct CorrelateCliOptions {
  correlate::CorrelateOptions correlate;
  std::string out;
  double clock_mhz = 0;
  std::uint32_t num_sms = 0;
};

void run(CorrelateCliOptions& options) {
  if (options.clock_mhz > 0) options.correlate.hw.clock_mhz = options.clock_mhz;
  if (options.num_sms > 0) options.correlate.hw.num_sms = options.num_sms;
  const correlate::Correlation c = correlate::correlate(options.correlate);
  correlate::print_summary(stdout, c);
  correlate::write_outputs(c, options.out);
  fmt::print(
      "written: {0}/correlation.csv, {0}/summary.json, {0}/scatter.svg, "
      "{0}/error_histogram.svg, {0}/report.html\n",
      options.out);
}

}  // namespace

void add_correlate_command(CLI::App& app) {
  auto options = std::make_shared<CorrelateCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "correlate",
      "Compare simulated kernel cycles with hardware measurements (Nsight Compute or nvprof "
      "CSV): per-kernel errors, MAPE, MAE, Pearson r, plots and an HTML report "
      "(docs/CORRELATION.md)");
  cmd->add_option("--sim", options->correlate.sim_files,
                  "results file of `sassim run --out` (or a sweep.csv); repeat to concatenate")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--hw", options->correlate.hw_files,
                  "hardware measurements: ncu --csv, nvprof --csv log, or a kernel,cycles table; "
                  "repeat to concatenate")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("-o,--out", options->out, "folder for the outputs")->required();
  cmd->add_option("--metric", options->correlate.metric, "what to compare (cycles)")
      ->default_val("cycles");
  cmd->add_option("--hw-metric", options->correlate.hw.metric,
                  "hardware metric to use instead of the preference order "
                  "(e.g. gpc__cycles_elapsed.max)");
  cmd->add_option("--clock-mhz", options->clock_mhz,
                  "core clock to convert hardware durations to cycles (overrides the file's)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--num-sms", options->num_sms,
                  "SM count of the measured GPU, for nvprof's elapsed_cycles_sm (summed over SMs)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--run", options->correlate.sweep.run_id, "run_id to take from a sweep.csv");
  cmd->add_option("--point", options->correlate.sweep.point,
                  "config point to take from a sweep.csv: a swept parameter's value; repeat "
                  "for several parameters")
      ->type_name("PATH=VALUE");
  cmd->callback([options] { run(*options); });
}

}  // namespace sassim::cli
