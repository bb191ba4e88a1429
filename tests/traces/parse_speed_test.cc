// Parse speed of the reader on the BFS reference trace (154,839 instruction lines in 16
// kernels), from plain text and from .xz. Prints lines per second; the bound is loose
// (noisy shared machines, unoptimized builds) and only catches pathological slowdowns.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/support/scratch_dir.h"
#include "traces/accelsim_reader.h"
#include "traces/line_source.h"

namespace sassim::traces {
namespace {

const std::filesystem::path kBfs = std::filesystem::path(SASSIM_SOURCE_DIR) /
                                   "traces/reference/v100-rodinia-bfs/util/tracer_nvbit/traces/"
                                   "bfs-rodinia-3.1";

std::uint64_t read_all(const std::filesystem::path& folder) {
  std::uint64_t insts = 0;
  auto w = open_accelsim_workload(folder);
  while (auto c = w->next()) {
    if (auto* launch = std::get_if<KernelLaunch>(&*c)) {
      while (auto cta = launch->kernel->next_cta()) insts += cta->instruction_count();
    }
  }
  return insts;
}

double lines_per_second(const std::filesystem::path& folder, int repeats) {
  auto start = std::chrono::steady_clock::now();
  std::uint64_t insts = 0;
  for (int i = 0; i < repeats; ++i) insts += read_all(folder);
  std::chrono::duration<double> s = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(insts, 154839u * static_cast<std::uint64_t>(repeats));
  return static_cast<double>(insts) / s.count();
}

TEST(ParseSpeed, BfsPlainAndXz) {
  // A plain copy of the trace folder.
  auto dir = test_support::scratch_path("parse_speed_bfs");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(kBfs / "kernelslist.g", dir / "kernelslist.g");
  for (const auto& e : std::filesystem::directory_iterator(kBfs)) {
    if (e.path().extension() != ".xz") continue;
    auto src = open_line_source(e.path());
    std::ofstream out(dir / e.path().stem(), std::ios::binary);
    std::string_view line;
    while (src->next(line)) out << line << '\n';
  }
  const double plain = lines_per_second(dir, 5);
  const double xz = lines_per_second(kBfs, 5);
  std::filesystem::remove_all(dir);
  std::printf("[ speed    ] BFS plain: %.0f instruction lines/s, xz: %.0f instruction lines/s\n",
              plain, xz);
  EXPECT_GT(plain, 100000.0);
  EXPECT_GT(xz, 100000.0);
}

}  // namespace
}  // namespace sassim::traces
