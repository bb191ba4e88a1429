// Line sources: plain files, in-process .xz decompression and memory give the same lines;
// blocks boundaries, CRLF, final lines without newline, unread.
#include "traces/line_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <lzma.h>

#include <fstream>
#include <string>
#include <vector>

#include "ground/error.h"
#include "tests/support/test_scratch_dir.h"
#include "traces/accelsim_reader.h"
#include "traces/decoded_cta.h"

namespace sassim::traces {
namespace {

using ::testing::HasSubstr;

void write_file(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

std::string xz_compress(const std::string& text) {
  std::string out(lzma_stream_buffer_bound(text.size()), '\0');
  std::size_t pos = 0;
  EXPECT_EQ(lzma_easy_buffer_encode(0, LZMA_CHECK_CRC64, nullptr,
                                    reinterpret_cast<const std::uint8_t*>(text.data()), text.size(),
                                    reinterpret_cast<std::uint8_t*>(out.data()), &pos, out.size()),
            LZMA_OK);
  out.resize(pos);
  return out;
}

std::vector<std::string> all_lines(LineSource& src) {
  std::vector<std::string> out;
  std::string_view line;
  while (src.next(line)) out.emplace_back(line);
  return out;
}

// About 3 MB of lines of varying length: crosses many 1 MiB read blocks.
std::string big_text() {
  std::string text;
  for (int i = 0; i < 60000; ++i) {
    text += "line " + std::to_string(i) + " " + std::string(static_cast<std::size_t>(i % 97), 'x') +
            "\n";
  }
  return text;
}

TEST(LineSource, MemoryLinesEndingsAndUnread) {
  auto src = memory_line_source("a\r\nbb\n\nlast", "m");
  std::string_view line;
  ASSERT_TRUE(src->next(line));
  EXPECT_EQ(line, "a");
  EXPECT_EQ(src->line_number(), 1u);
  ASSERT_TRUE(src->next(line));
  EXPECT_EQ(line, "bb");
  src->unread();
  ASSERT_TRUE(src->next(line));
  EXPECT_EQ(line, "bb");
  EXPECT_EQ(src->line_number(), 2u);
  ASSERT_TRUE(src->next(line));
  EXPECT_EQ(line, "");
  ASSERT_TRUE(src->next(line));
  EXPECT_EQ(line, "last");
  EXPECT_EQ(src->line_number(), 4u);
  EXPECT_FALSE(src->next(line));
  EXPECT_FALSE(src->next(line));
  EXPECT_EQ(src->name(), "m");
}

TEST(LineSource, LongLineLargerThanABlock) {
  std::string longline(3u << 20, 'y');
  auto src = memory_line_source("short\n" + longline + "\nend\n", "m");
  auto lines = all_lines(*src);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], longline);
  EXPECT_EQ(lines[2], "end");
}

TEST(LineSource, ALineBeyondTheCapIsAnErrorNamingIt) {
  // A line of exactly the cap is read; one byte more (of NULs, as in a damaged file) is not.
  std::string at_cap(LineSource::kMaxLineBytes, 'z');
  auto ok = memory_line_source("a\n" + at_cap + "\nb\n", "ok");
  EXPECT_EQ(all_lines(*ok).size(), 3u);
  auto src = memory_line_source("a\nb\n" + std::string(LineSource::kMaxLineBytes + 1, '\0'), "t");
  std::string_view line;
  ASSERT_TRUE(src->next(line));
  ASSERT_TRUE(src->next(line));
  try {
    src->next(line);
    FAIL() << "read a line beyond the cap";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "t:3: a line longer than 16 MiB: expected the text lines of a trace (is the file "
              "damaged, or not a trace?)");
  }
}

TEST(LineSource, PlainXzAndMemoryGiveIdenticalLines) {
  test_support::TestScratchDir dir("traces_");
  const std::string text = big_text();
  write_file(dir.path() / "t.txt", text);
  write_file(dir.path() / "t.txt.xz", xz_compress(text));
  auto mem = all_lines(*memory_line_source(text, "m"));
  auto plain = all_lines(*open_line_source(dir.path() / "t.txt"));
  auto xz = all_lines(*open_line_source(dir.path() / "t.txt.xz"));
  ASSERT_EQ(mem.size(), 60000u);
  EXPECT_EQ(plain, mem);
  EXPECT_EQ(xz, mem);
}

TEST(LineSource, XzIsRecognizedByContentNotName) {
  test_support::TestScratchDir dir("traces_");
  write_file(dir.path() / "named.traceg", xz_compress("hello\nworld\n"));
  auto lines = all_lines(*open_line_source(dir.path() / "named.traceg"));
  EXPECT_EQ(lines, (std::vector<std::string>{"hello", "world"}));
}

TEST(LineSource, TruncatedAndCorruptXzAreErrorsNamingTheFile) {
  test_support::TestScratchDir dir("traces_");
  std::string xz = xz_compress(big_text());
  write_file(dir.path() / "cut.traceg.xz", xz.substr(0, xz.size() / 2));
  std::string corrupt = xz;
  corrupt[corrupt.size() / 2] = static_cast<char>(corrupt[corrupt.size() / 2] ^ 0x55);
  write_file(dir.path() / "bad.traceg.xz", corrupt);
  for (const char* name : {"cut.traceg.xz", "bad.traceg.xz"}) {
    try {
      all_lines(*open_line_source(dir.path() / name));
      ADD_FAILURE() << name << ": expected an error";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr(name));
      EXPECT_THAT(e.what(), HasSubstr("xz"));
    }
  }
}

TEST(LineSource, MissingFileIsAnError) {
  EXPECT_THROW(open_line_source("/nonexistent/sassim/trace.traceg"), Error);
  EXPECT_THROW(open_line_source(std::filesystem::temp_directory_path()), Error);
}

// The same kernel from plain text and from .xz: identical headers, statics and CTAs.
TEST(LineSource, KernelFromPlainAndXzIsIdentical) {
  test_support::TestScratchDir dir("traces_");
  const std::filesystem::path fixture =
      std::filesystem::path(SASSIM_TEST_DATA_DIR) / "traces/small_workload/kernel-1.traceg";
  std::string text(std::filesystem::file_size(fixture), '\0');
  std::ifstream(fixture, std::ios::binary)
      .read(text.data(), static_cast<std::streamsize>(text.size()));
  ASSERT_FALSE(text.empty());
  write_file(dir.path() / "k.traceg", text);
  write_file(dir.path() / "k2.traceg.xz", xz_compress(text));
  auto plain = open_accelsim_kernel(dir.path() / "k.traceg");
  auto xz = open_accelsim_kernel(dir.path() / "k2.traceg");  // found as k2.traceg.xz
  EXPECT_EQ(xz->info().source, (dir.path() / "k2.traceg.xz").string());
  EXPECT_EQ(plain->info().name, xz->info().name);
  EXPECT_EQ(plain->info().grid, xz->info().grid);
  int ctas = 0;
  for (;;) {
    auto next_a = plain->next_cta();
    auto next_b = xz->next_cta();
    ASSERT_EQ(next_a.has_value(), next_b.has_value());
    if (!next_a) break;
    const std::optional<DecodedCta> a = decode(std::move(*next_a));
    const std::optional<DecodedCta> b = decode(std::move(*next_b));
    ++ctas;
    EXPECT_EQ(a->id, b->id);
    EXPECT_EQ(a->addresses, b->addresses);
    ASSERT_EQ(a->warps.size(), b->warps.size());
    for (std::size_t w = 0; w < a->warps.size(); ++w) {
      ASSERT_EQ(a->warps[w].insts.size(), b->warps[w].insts.size());
      for (std::size_t i = 0; i < a->warps[w].insts.size(); ++i) {
        const auto& x = a->warps[w].insts[i];
        const auto& y = b->warps[w].insts[i];
        EXPECT_EQ(x.static_index, y.static_index);
        EXPECT_EQ(x.active_mask, y.active_mask);
        EXPECT_EQ(x.addr_begin, y.addr_begin);
        EXPECT_EQ(x.addr_count, y.addr_count);
      }
    }
  }
  EXPECT_EQ(ctas, 2);
  ASSERT_EQ(plain->statics().size(), xz->statics().size());
  for (std::uint32_t i = 0; i < plain->statics().size(); ++i) {
    EXPECT_EQ(plain->statics()[i].pc, xz->statics()[i].pc);
    EXPECT_EQ(plain->statics()[i].op.id, xz->statics()[i].op.id);
  }
}

}  // namespace
}  // namespace sassim::traces
