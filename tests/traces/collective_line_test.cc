// Collective lines of a multi-GPU rank's kernelslist.g: what they read as, that the
// written form reads back, and that each malformed line is an error naming its file and
// line and what is wrong.
#include "traces/collective_line.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <variant>

#include "ground/error.h"
#include "tests/support/test_scratch_dir.h"
#include "traces/kernelslist.h"

namespace sassim::traces {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// The message parse_collective_line throws for `text` at f.g:7 ("" when it throws none).
std::string error_of(std::string_view text) {
  try {
    parse_collective_line(text, "f.g", 7);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error for " << text;
  return "";
}

TEST(CollectiveLine, ReadsEveryField) {
  const CollectiveCommand c = parse_collective_line(
      "Collective,all_gather,bytes=16384,type=bf16,ranks=0-3:8-11,stream=2,algorithm=ring,"
      "protocol=ll128",
      "rank-0/kernelslist.g", 9);
  EXPECT_EQ(c.op, "all_gather");
  EXPECT_EQ(c.bytes, 16384u);
  EXPECT_EQ(c.type, "bf16");
  EXPECT_THAT(c.ranks, ElementsAre(0u, 1u, 2u, 3u, 8u, 9u, 10u, 11u));
  EXPECT_EQ(c.stream, 2);
  EXPECT_EQ(c.algorithm, "ring");
  EXPECT_EQ(c.protocol, "ll128");
  EXPECT_EQ(c.source, "rank-0/kernelslist.g:9");
}

TEST(CollectiveLine, DefaultsAndAllRanks) {
  const CollectiveCommand c =
      parse_collective_line("Collective,all_reduce, bytes=8 ,type=fp32,ranks=all", "f.g", 1);
  EXPECT_EQ(c.bytes, 8u);
  EXPECT_TRUE(c.ranks.empty());
  EXPECT_EQ(c.stream, 0);
  EXPECT_EQ(c.algorithm, "auto");
  EXPECT_EQ(c.protocol, "auto");
  EXPECT_EQ(format_collective_line(c),
            "Collective,all_reduce,bytes=8,type=fp32,ranks=all,stream=0");
}

TEST(CollectiveLine, FormatsRanksAsRisingRanges) {
  EXPECT_EQ(format_ranks({}), "all");
  EXPECT_EQ(format_ranks({5}), "5");
  EXPECT_EQ(format_ranks({0, 1, 2, 3}), "0-3");
  EXPECT_EQ(format_ranks({0, 1, 2, 3, 8, 9, 10, 11}), "0-3:8-11");
  EXPECT_EQ(format_ranks({1, 3, 4}), "1:3-4");
}

TEST(CollectiveLine, WrittenLinesReadBack) {
  CollectiveCommand c;
  c.op = "reduce_scatter";
  c.bytes = 1u << 20;
  c.type = "fp16";
  c.ranks = {0, 1, 2, 3, 8, 9, 10, 11};
  c.stream = 3;
  c.algorithm = "tree";
  c.protocol = "simple";
  const std::string line = format_collective_line(c);
  EXPECT_EQ(line,
            "Collective,reduce_scatter,bytes=1048576,type=fp16,ranks=0-3:8-11,stream=3,"
            "algorithm=tree,protocol=simple");
  const CollectiveCommand back = parse_collective_line(line, "g", 2);
  EXPECT_EQ(back.op, c.op);
  EXPECT_EQ(back.bytes, c.bytes);
  EXPECT_EQ(back.type, c.type);
  EXPECT_EQ(back.ranks, c.ranks);
  EXPECT_EQ(back.stream, c.stream);
  EXPECT_EQ(back.algorithm, c.algorithm);
  EXPECT_EQ(back.protocol, c.protocol);
  EXPECT_EQ(format_collective_line(back), line);

  c.ranks = {};
  c.algorithm = c.protocol = "auto";
  EXPECT_EQ(format_collective_line(c),
            "Collective,reduce_scatter,bytes=1048576,type=fp16,ranks=all,stream=3");
  EXPECT_TRUE(parse_collective_line(format_collective_line(c), "g", 2).ranks.empty());
}

TEST(CollectiveLine, EachErrorNamesTheLineAndTheProblem) {
  const std::string ok = "Collective,all_reduce,bytes=64,type=bf16,ranks=0-7";
  EXPECT_THAT(error_of("Collective,all_reduce,type=bf16,ranks=0-7"),
              AllOf(StartsWith("f.g:7: "), HasSubstr("no bytes=")));
  EXPECT_THAT(error_of("Collective,all_reduce,bytes=64,ranks=0-7"),
              AllOf(StartsWith("f.g:7: "), HasSubstr("no type=")));
  EXPECT_THAT(error_of("Collective,all_reduce,bytes=64,type=bf16"),
              AllOf(StartsWith("f.g:7: "), HasSubstr("no ranks=")));
  EXPECT_THAT(error_of("Collective,all_reduce,bytes=0,type=bf16,ranks=0-7"),
              AllOf(StartsWith("f.g:7: "), HasSubstr("bytes=0: expected a positive count")));
  EXPECT_THAT(error_of(ok + ",color=red"),
              AllOf(StartsWith("f.g:7: "), HasSubstr("unknown key 'color'")));
  EXPECT_THAT(error_of(ok + ",bytes=128"),
              AllOf(StartsWith("f.g:7: "), HasSubstr("bytes given twice")));
  EXPECT_THAT(error_of("Collective,all_reduce,bytes=64,type=bf16,ranks=3-1"),
              AllOf(StartsWith("f.g:7: "), HasSubstr("ranks=3-1: expected rising ranges")));
  EXPECT_THAT(error_of("Collective,all_reduce,bytes=64,type=bf16,ranks=0-3:2"),
              AllOf(StartsWith("f.g:7: "), HasSubstr("ranks=0-3:2: expected rising ranges")));
  EXPECT_THAT(error_of(ok + ",stream"),
              AllOf(StartsWith("f.g:7: "), HasSubstr("'stream' is not KEY=VALUE")));
  EXPECT_THAT(error_of(ok + ",stream=x"),
              AllOf(StartsWith("f.g:7: "), HasSubstr("stream=x: expected a stream id")));
  EXPECT_THAT(error_of("Collective"), AllOf(StartsWith("f.g:7: "), HasSubstr("not a collective")));
  EXPECT_THAT(error_of("Collective,,bytes=64,type=bf16,ranks=0-7"),
              AllOf(StartsWith("f.g:7: "), HasSubstr("no operation after 'Collective'")));
  // Every message quotes the line and the expected form.
  EXPECT_THAT(error_of(ok + ",color=red"),
              AllOf(HasSubstr("'" + ok + ",color=red'"),
                    HasSubstr("expected 'Collective,OP,bytes=N,type=T,ranks=R")));
}

TEST(CollectiveLine, KernelslistKeepsItInPlace) {
  const test_support::TestScratchDir dir("collective_line_");
  std::ofstream(dir.path() / "kernel-1.traceg") << "";
  std::ofstream(dir.path() / "kernelslist.g")
      << "MemcpyHtoD,0x100,8\n"
         "kernel-1.traceg\n"
         "\n"
         "Collective,all_reduce,bytes=4096,type=bf16,ranks=0-1,stream=1\n"
         "kernel-1.traceg\n";
  const std::vector<ListEntry> entries = read_kernelslist(dir.path() / "kernelslist.g");
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_TRUE(std::holds_alternative<MemcpyHtoD>(entries[0]));
  EXPECT_TRUE(std::holds_alternative<KernelFile>(entries[1]));
  ASSERT_TRUE(std::holds_alternative<CollectiveCommand>(entries[2]));
  EXPECT_TRUE(std::holds_alternative<KernelFile>(entries[3]));
  const auto& c = std::get<CollectiveCommand>(entries[2]);
  EXPECT_EQ(c.op, "all_reduce");
  EXPECT_EQ(c.bytes, 4096u);
  EXPECT_THAT(c.ranks, ElementsAre(0u, 1u));
  EXPECT_EQ(c.stream, 1);
  EXPECT_EQ(c.source, (dir.path() / "kernelslist.g").string() + ":4");

  std::ofstream(dir.path() / "kernelslist.g")
      << "kernel-1.traceg\nCollective,all_reduce,bytes=4096,type=bf16,ranks=2-0\n";
  try {
    read_kernelslist(dir.path() / "kernelslist.g");
    ADD_FAILURE() << "no error for ranks=2-0";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), AllOf(StartsWith((dir.path() / "kernelslist.g").string() + ":2: "),
                                HasSubstr("ranks=2-0")));
  }
}

}  // namespace
}  // namespace sassim::traces
