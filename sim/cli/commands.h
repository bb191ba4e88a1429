#pragma once
// The sassim subcommands, each registered on the CLI11 app by its own file.
#include <CLI/CLI.hpp>

namespace sassim::cli {

// Thrown by a command that ends early with a status of its own (a run stopped by a
// signal: 128 + the signal); main() returns `status`.
struct ExitStatus {
  int status;
};

void add_run_command(CLI::App& app);
void add_config_command(CLI::App& app);
void add_trace_command(CLI::App& app);
void add_sweep_command(CLI::App& app);
void add_correlate_command(CLI::App& app);
void add_capture_command(CLI::App& app);
void add_workload_command(CLI::App& app);
void add_collective_command(CLI::App& app);
void add_help_command(CLI::App& app);

}  // namespace sassim::cli
