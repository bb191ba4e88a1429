// Every bundled reference trace parses, and its warp-instruction counts equal both the
// "insts =" lines of the files and the published figures.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "isa/opcode.h"
#include "traces/accelsim_reader.h"
#include "traces/line_source.h"
#include "traces/tokens.h"

namespace sassim::traces {
namespace {

const std::filesystem::path kRef = std::filesystem::path(SASSIM_SOURCE_DIR) / "traces/reference";

struct KernelCount {
  std::string source;
  std::uint64_t parsed = 0;       // warp instructions yielded by next_cta()
  std::uint64_t insts_lines = 0;  // sum of the "insts = N" lines of the file
  std::uint64_t ctas = 0;
};

// Sum of "insts = N" lines, read independently of the CTA parser.
std::uint64_t sum_insts_lines(const std::filesystem::path& file) {
  auto lines = open_line_source(file);
  std::uint64_t sum = 0;
  std::string_view line;
  while (lines->next(line)) {
    if (line.starts_with("insts = ")) sum += parse_dec_u64(line.substr(8)).value_or(0);
  }
  return sum;
}

std::vector<KernelCount> count(const std::filesystem::path& folder) {
  std::vector<KernelCount> out;
  auto workload = open_accelsim_workload(kRef / folder);
  while (auto command = workload->next()) {
    auto* launch = std::get_if<KernelLaunch>(&*command);
    if (launch == nullptr) continue;
    KernelCount k;
    k.source = launch->kernel->info().source;
    while (auto cta = launch->kernel->next_cta()) {
      ++k.ctas;
      k.parsed += cta->instruction_count();
    }
    k.insts_lines = sum_insts_lines(k.source);
    out.push_back(k);
  }
  return out;
}

std::uint64_t total(const std::vector<KernelCount>& ks) {
  return std::accumulate(ks.begin(), ks.end(), std::uint64_t{0},
                         [](std::uint64_t s, const KernelCount& k) { return s + k.parsed; });
}

void expect_counts_match_files(const std::vector<KernelCount>& ks) {
  for (const auto& k : ks) EXPECT_EQ(k.parsed, k.insts_lines) << k.source;
}

TEST(ReferenceTraces, V100BfsTracerV3) {
  auto ks = count("v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1");
  const std::vector<std::uint64_t> expected = {1789,  1814, 3346,  2399, 10823, 3494, 28495, 3584,
                                               38002, 3584, 34522, 3314, 14681, 1694, 1634,  1664};
  ASSERT_EQ(ks.size(), expected.size());
  for (std::size_t i = 0; i < ks.size(); ++i) {
    EXPECT_EQ(ks[i].parsed, expected[i]) << "kernel " << i + 1;
    EXPECT_EQ(ks[i].ctas, 8u) << "kernel " << i + 1;
  }
  EXPECT_EQ(total(ks), 154839u);
  expect_counts_match_files(ks);
}

TEST(ReferenceTraces, Gtx1080TracerV4) {
  auto vectoradd = count("gtx1080-microgpusim/test-apps/vectoradd/traces/vectoradd-100-32-trace");
  ASSERT_EQ(vectoradd.size(), 1u);
  EXPECT_EQ(vectoradd[0].parsed, 344u);
  expect_counts_match_files(vectoradd);
  auto matrixmul = count("gtx1080-microgpusim/test-apps/matrixmul/traces/matrixmul-32-32-trace");
  ASSERT_EQ(matrixmul.size(), 1u);
  EXPECT_EQ(matrixmul[0].parsed, 4416u);  // stats.csv
  expect_counts_match_files(matrixmul);
}

TEST(ReferenceTraces, TuringVecaddTracerV12) {
  auto ks = count("rtx-turing-vecadd-v1.2/util/tracer_nvbit/traces/GPU_0");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].parsed, 46941u);
  EXPECT_EQ(ks[0].ctas, 98u);
  expect_counts_match_files(ks);
}

TEST(ReferenceTraces, A100FlashinferTracerV5) {
  const std::string base = "a100-flashinfer/test-traces/";
  auto gemm = count(base + "flashinfer-gemm/traces");
  // stats.csv agrees for kernels 1-8 (it also lists kernels 9-10, whose traces are absent).
  const std::vector<std::uint64_t> gemm_expected = {2531, 2531, 115, 113, 49, 68, 996, 48};
  ASSERT_EQ(gemm.size(), gemm_expected.size());
  for (std::size_t i = 0; i < gemm.size(); ++i) EXPECT_EQ(gemm[i].parsed, gemm_expected[i]);
  expect_counts_match_files(gemm);

  // stats.csv says 29,408 and 212,608: more than the traces hold (16 warps x 1814 and
  // 128 warps x 1597 instruction lines, every warp complete).
  auto prefill = count(base + "flashinfer-prefill/traces");
  ASSERT_EQ(prefill.size(), 1u);
  EXPECT_EQ(prefill[0].parsed, 29024u);
  EXPECT_EQ(prefill[0].ctas, 4u);
  expect_counts_match_files(prefill);
  auto decode = count(base + "flashinfer-singledecode/traces");
  ASSERT_EQ(decode.size(), 1u);
  EXPECT_EQ(decode[0].parsed, 204416u);
  EXPECT_EQ(decode[0].ctas, 32u);
  expect_counts_match_files(decode);
}

// Every opcode of every bundled trace decodes on its trace's architecture (checked
// here directly on the text, independently of the reader's own decode).
TEST(ReferenceTraces, EveryOpcodeDecodesOnItsArchitecture) {
  std::vector<std::string> failures;
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kRef)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name.find(".traceg") == std::string::npos) continue;
    ++files;
    auto lines = open_line_source(entry.path());
    std::optional<isa::Arch> arch;
    int tracer_major = 0;
    std::string_view line;
    while (lines->next(line)) {
      if (line.starts_with("-binary version = ")) {
        arch = isa::arch_from_binary_version(
            static_cast<int>(parse_dec_u32(line.substr(18)).value_or(0)));
      } else if (line.starts_with("-accelsim tracer version = ")) {
        tracer_major = line.substr(27).starts_with("1") ? 1 : 3;
      }
      if (line.empty() || !std::isxdigit(static_cast<unsigned char>(line[0]))) continue;
      ASSERT_TRUE(arch.has_value()) << entry.path();
      TokenCursor tokens(line);
      for (int skip = tracer_major < 3 ? 6 : 2; skip > 0; --skip) tokens.next();  // ids, PC, mask
      auto dsts = parse_dec_u32(tokens.next()).value_or(0);
      for (std::uint32_t i = 0; i < dsts; ++i) tokens.next();
      std::string_view opcode = tokens.next();
      if (!isa::OpcodeTable::get(*arch).decode(opcode)) {
        failures.push_back(std::string(opcode) + " (" + std::string(isa::arch_name(*arch)) + ", " +
                           entry.path().string() + ")");
      }
    }
  }
  EXPECT_GE(files, 28u);
  EXPECT_TRUE(failures.empty()) << failures.size() << " opcodes do not decode, first: "
                                << (failures.empty() ? "" : failures.front());
}

}  // namespace
}  // namespace sassim::traces
