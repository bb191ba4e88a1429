// sassim: cycle-approximate simulation of NVIDIA GPUs from SASS traces.
#include <cerrno>
#include <cstdio>
#include <system_error>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "ground/error.h"
#include "ground/version.h"
#include "sim/cli/commands.h"
#include "sim/cli/output_check.h"

int main(int argc, char** argv) {
  CLI::App app{"sassim: cycle-approximate simulator of NVIDIA GPUs driven by SASS traces"};
  app.require_subcommand(0, 1);
  sassim::cli::add_run_command(app);
  sassim::cli::add_config_command(app);
  sassim::cli::add_trace_command(app);
  sassim::cli::add_sweep_command(app);
  sassim::cli::add_correlate_command(app);
  sassim::cli::add_capture_command(app);
  sassim::cli::add_workload_command(app);
  sassim::cli::add_collective_command(app);
  sassim::cli::add_help_command(app);
  app.set_version_flag(
      "--version", fmt::format("sassim {} (commit {})", sassim::version(), sassim::git_commit()));
  try {
    // No subcommand at all: replay the bundled trace, as `sassim run` does.
    if (argc == 1) {
      const char* run_argv[] = {argv[0], "run"};
      app.parse(2, run_argv);
    } else {
      app.parse(argc, argv);
    }
  } catch (const CLI::ParseError& e) {
    // --help and --version end here with 0; a usage error exits 2, as the shell's tools do.
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const sassim::cli::ExitStatus& e) {
    if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
      fmt::print(stderr, "sassim: error: {}\n", sassim::cli::stdout_error(errno));
    }
    return e.status;
  } catch (const sassim::UsageError& e) {
    fmt::print(stderr, "sassim: error: {}\n", e.what());
    return 2;
  } catch (const sassim::Error& e) {
    fmt::print(stderr, "sassim: error: {}\n", e.what());
    return 1;
  } catch (const std::system_error& e) {  // fmt's failed writes, among others
    // fmt says "cannot write to file": name the file when it is stdout.
    const bool to_stdout = std::ferror(stdout) != 0;
    fmt::print(stderr, "sassim: error: {}\n",
               to_stdout ? sassim::cli::stdout_error(e.code().value()) : e.what());
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "sassim: internal error: {}\n", e.what());
    return 2;
  }
  // What was printed must have arrived: a full disk or a closed pipe is an error.
  try {
    sassim::cli::flush_stdout();
  } catch (const sassim::Error& e) {
    fmt::print(stderr, "sassim: error: {}\n", e.what());
    return 1;
  }
  return 0;
}
