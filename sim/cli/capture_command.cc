// `sassim capture KERNEL [VALUE...] [--listing PATH] [-o FOLDER] [--plain] [--check]`:
// executes a suite kernel's SASS listing on the CPU and writes its Accel-Sim trace
// (zstd-compressed unless --plain).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ground/error.h"
#include "kernels/suite.h"
#include "sim/cli/commands.h"
#include "sim/cli/paths.h"
#include "traces/emu/capture.h"
#include "traces/emu/suite/suite_io.h"

namespace sassim::cli {
namespace {

struct CaptureCliOptions {
  std::string kernel;
  std::vector<std::string> values;
  std::string listing;
  std::string out;
  bool plain = false;
  bool check = false;
  bool quiet = false;
};

// The listing file: --listing (a file, or a folder holding KERNEL.sass) from the current
// directory or, when relative and not found there, from the data home; without it the
// data home's kernels/sass/sm_80.
std::filesystem::path listing_file(const CaptureCliOptions& o) {
  const std::vector<std::filesystem::path> candidates =
      o.listing.empty() ? std::vector{sassim_home() / "kernels/sass/sm_80"}
                        : data_path_candidates(o.listing);
  std::vector<std::string> tried;
  for (std::filesystem::path path : candidates) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) path /= o.kernel + ".sass";
    if (std::filesystem::is_regular_file(path, ec)) return path;
    tried.push_back(path.string());
  }
  const std::string expected =
      fmt::format("expected a .sass file or a folder holding {}.sass", o.kernel);
  if (tried.size() == 1) {
    throw Error(fmt::format("--listing: {} is not a listing file ({})", tried[0], expected));
  }
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  throw Error(fmt::format(
      "--listing {}: found neither {} (from the current directory, {}) nor {} (from the data "
      "home, $SASSIM_HOME or where sassim is installed or built): {}",
      o.listing, tried[0], cwd.string(), tried[1], expected));
}

void run_capture(const CaptureCliOptions& o) {
  const std::vector<std::string_view> values(o.values.begin(), o.values.end());
  kernels::Launch launch;
  try {
    launch = kernels::describe_launch(o.kernel, values);
  } catch (const std::invalid_argument& e) {
    throw Error(fmt::format("capture {}: {}", o.kernel, e.what()));
  }
  const std::filesystem::path path = listing_file(o);
  const traces::sass::Listing listing = traces::sass::read_listing(path);
  emu::DeviceBuffers buffers(launch);
  emu::fill_suite_inputs(launch, values, buffers);

  emu::CaptureOptions options;
  options.trace_folder = o.out;
  options.compression = o.plain ? traces::Compression::kNone : traces::Compression::kZstd;
  options.sm_version = emu::listing_sm_version(listing, path);
  options.const_bank2 = emu::read_const_bank2(path);
  options.host_copies = emu::suite_host_copies(launch, buffers);
  const bool tty = !o.quiet && isatty(fileno(stderr)) != 0;
  const auto start = std::chrono::steady_clock::now();
  auto last = start;
  if (tty) {
    options.progress = [&](uint64_t done, uint64_t total, uint64_t insts) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::milliseconds(200) && done != total) return;
      last = now;
      const double s = std::chrono::duration<double>(now - start).count();
      fmt::print(stderr, "\r\033[K{} of {} CTAs | {} warp insts | {:.0f} warp insts/s", done, total,
                 insts, s > 0 ? static_cast<double>(insts) / s : 0.0);
      std::fflush(stderr);
    };
  }
  const emu::CaptureResult r = emu::capture(listing, launch, buffers, options);
  if (tty) fmt::print(stderr, "\r\033[K");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(
      "captured {} (sm_{}) from {}: {} CTAs, {} warp instructions in {:.2f} s ({:.2f} M/s){}\n",
      o.kernel, options.sm_version, path.string(), r.ctas, r.warp_insts, seconds,
      seconds > 0 ? static_cast<double>(r.warp_insts) / seconds / 1e6 : 0.0,
      o.out.empty() ? "; no trace written (-o FOLDER writes one)"
                    : fmt::format(" -> {}/kernelslist.g", o.out));
  if (o.check) {
    const emu::SuiteCheck c = emu::check_suite_outputs(launch, values, buffers);
    if (!c.ok) throw Error(fmt::format("--check failed: {}", c.message));
    fmt::print("check: {}\n", c.message);
  }
}

}  // namespace

void add_capture_command(CLI::App& app) {
  auto o = std::make_shared<CaptureCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "capture", "Execute a suite kernel's SASS on the CPU and write its Accel-Sim trace");
  cmd->add_option("kernel", o->kernel, "suite kernel (kernels/suite.txt), e.g. vectoradd")
      ->required();
  cmd->add_option("values", o->values, "problem sizes, as in kernels/suite.txt");
  cmd->add_option("--listing", o->listing,
                  "SASS listing (.sass) or a folder of them; a relative path not found from the "
                  "current directory is looked up in the data home (default: kernels/sass/sm_80)");
  cmd->add_option("-o,--out", o->out, "folder for kernelslist.g and kernel-1.traceg.zst");
  cmd->add_flag("--plain", o->plain, "write kernel-1.traceg as text, not zstd-compressed");
  cmd->add_flag("--check", o->check, "compare the outputs with the kernel's CPU reference");
  cmd->add_flag("-q,--quiet", o->quiet, "no progress display");
  cmd->callback([o] { run_capture(*o); });
}

}  // namespace sassim::cli
