// zstd traces: what traces::open_output_file writes and what the zstd tool writes read back
// as the same lines; kernelslist.g falls back to a .zst file; truncated and corrupt data
// are errors naming the file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ground/error.h"
#include "tests/support/test_scratch_dir.h"
#include "traces/accelsim_reader.h"
#include "traces/line_source.h"
#include "traces/output_file.h"

namespace sassim::traces {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

// About 3 MB of lines: many zstd blocks and many 1 MiB read blocks. Written in pieces of
// 64 KiB, as a trace writer hands over its buffer.
std::string big_text() {
  std::string text;
  for (int i = 0; i < 60000; ++i) {
    text += "line " + std::to_string(i) + " " + std::string(static_cast<std::size_t>(i % 97), 'x') +
            "\n";
  }
  return text;
}

void write_zstd(const fs::path& p, const std::string& text) {
  auto out = open_output_file(p, Compression::kZstd);
  for (std::size_t at = 0; at < text.size(); at += 65536) {
    out->write(std::string_view(text).substr(at, 65536));
  }
  out->close();
}

std::vector<std::string> lines_of(LineSource& src) {
  std::vector<std::string> out;
  for (std::string_view line; src.next(line);) out.emplace_back(line);
  return out;
}

std::vector<std::string> all_lines(const fs::path& p) {
  return lines_of(*open_line_source(p));
}

std::vector<std::string> split(const std::string& text) {
  return lines_of(*memory_line_source(text, "m"));
}

TEST(ZstdLineSource, WrittenTextReadsBackAsTheSameLines) {
  test_support::TestScratchDir dir("zstd_");
  const std::string text = big_text();
  write_zstd(dir.path() / "t.zst", text);
  EXPECT_LT(fs::file_size(dir.path() / "t.zst") * 10, text.size());
  EXPECT_EQ(all_lines(dir.path() / "t.zst"), split(text));
}

TEST(ZstdLineSource, PlainOutputFileWritesTheBytes) {
  test_support::TestScratchDir dir("zstd_");
  auto out = open_output_file(dir.path() / "t.txt", Compression::kNone);
  out->write("a\nb\n");
  out->close();
  EXPECT_EQ(read_bytes(dir.path() / "t.txt"), "a\nb\n");
  EXPECT_EQ(compression_suffix(Compression::kZstd), ".zst");
  EXPECT_EQ(compression_suffix(Compression::kNone), "");
}

TEST(ZstdLineSource, EmptyStreamHasNoLines) {
  test_support::TestScratchDir dir("zstd_");
  write_zstd(dir.path() / "empty.zst", "");
  EXPECT_TRUE(all_lines(dir.path() / "empty.zst").empty());
}

// Files compressed by the zstd tool, one frame and two concatenated frames.
TEST(ZstdLineSource, ReadsWhatTheZstdToolWrites) {
  if (std::system("zstd --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no zstd tool";
  test_support::TestScratchDir dir("zstd_");
  const std::string text = big_text();
  write_bytes(dir.path() / "t.txt", text);
  write_bytes(dir.path() / "u.txt", "tail 1\ntail 2\n");
  const std::string d = dir.path().string();
  ASSERT_EQ(std::system(("zstd -q -19 '" + d + "/t.txt' '" + d + "/u.txt'").c_str()), 0);
  EXPECT_EQ(all_lines(dir.path() / "t.txt.zst"), split(text));
  write_bytes(dir.path() / "both.traceg",
              read_bytes(dir.path() / "t.txt.zst") + read_bytes(dir.path() / "u.txt.zst"));
  EXPECT_EQ(all_lines(dir.path() / "both.traceg"), split(text + "tail 1\ntail 2\n"));
}

TEST(ZstdLineSource, KernelFileNamedWithoutSuffixIsFoundAsZst) {
  test_support::TestScratchDir dir("zstd_");
  const fs::path fixture = fs::path(SASSIM_TEST_DATA_DIR) / "traces/small_workload/kernel-1.traceg";
  write_zstd(dir.path() / "kernel-1.traceg.zst", read_bytes(fixture));
  write_bytes(dir.path() / "kernelslist.g", "kernel-1.traceg\n");
  auto workload = open_accelsim_workload(dir.path());
  auto command = workload->next();
  ASSERT_TRUE(command.has_value());
  const KernelTrace& k = *std::get<KernelLaunch>(*command).kernel;
  EXPECT_EQ(k.info().source, (dir.path() / "kernel-1.traceg.zst").string());
  EXPECT_EQ(k.info().name, open_accelsim_kernel(fixture)->info().name);
}

TEST(ZstdLineSource, TruncatedAndCorruptZstdAreErrorsNamingTheFile) {
  test_support::TestScratchDir dir("zstd_");
  write_zstd(dir.path() / "whole.zst", big_text());
  const std::string zstd = read_bytes(dir.path() / "whole.zst");
  std::string corrupt = zstd;
  corrupt[corrupt.size() / 2] = static_cast<char>(corrupt[corrupt.size() / 2] ^ 0x55);
  write_bytes(dir.path() / "cut.traceg.zst", zstd.substr(0, zstd.size() / 2));
  write_bytes(dir.path() / "bad.traceg.zst", corrupt);
  write_bytes(dir.path() / "end.traceg.zst", zstd.substr(0, zstd.size() - 2));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"cut.traceg.zst",
       ": zstd data ends early (truncated .zst file: expected the rest of the "
       "frame)"},
      {"end.traceg.zst", ": zstd data ends early"},
      {"bad.traceg.zst", ": corrupt zstd data ("},
  };
  for (const auto& [name, message] : cases) {
    try {
      all_lines(dir.path() / name);
      ADD_FAILURE() << name << ": expected an error";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr((dir.path() / name).string() + message));
    }
  }
}

}  // namespace
}  // namespace sassim::traces
