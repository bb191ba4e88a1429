// Validation of every kernel header field: what is accepted, and that each bad value is
// an error naming the file, the line and the expected range.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ground/error.h"
#include "tests/traces/trace_text.h"
#include "traces/kernel_header.h"
#include "traces/text_trace.h"

namespace sassim::traces {
namespace {

using ::testing::HasSubstr;
using trace_text::header;
using trace_text::HeaderFields;

std::string error_of(const std::string& text) {
  try {
    kernel_from_text(text, "h.traceg");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return text.replace(pos, from.size(), to);
}

struct BadValue {
  std::string from, to, message;
};

TEST(KernelHeader, BadValuesNameLineAndExpectation) {
  const std::string good = header();
  const std::vector<BadValue> cases = {
      {"-kernel id = 1", "-kernel id = x1", "h.traceg:2: -kernel id = x1: expected a decimal"},
      {"-kernel id = 1", "-kernel id = 4294967296", "h.traceg:2: -kernel id = 4294967296"},
      {"-grid dim = (2,1,1)", "-grid dim = (2147483648,1,1)", "h.traceg:3: -grid dim ="},
      {"-grid dim = (2,1,1)", "-grid dim = (1,65536,1)", "h.traceg:3: -grid dim = (1,65536,1)"},
      {"-grid dim = (2,1,1)", "-grid dim = (1,1,0)", "h.traceg:3:"},
      {"-grid dim = (2,1,1)", "-grid dim = (1,1)", "h.traceg:3:"},
      {"-grid dim = (2,1,1)", "-grid dim = 2,1,1", "h.traceg:3:"},
      {"-block dim = (64,1,1)", "-block dim = (1025,1,1)",
       "h.traceg:4: -block dim = (1025,1,1): expected (x,y,z) with x, y in 1..1024, z in 1..64 "
       "and 1..1024 threads in total"},
      {"-block dim = (64,1,1)", "-block dim = (64,32,1)", "h.traceg:4: -block dim = (64,32,1)"},
      {"-block dim = (64,1,1)", "-block dim = (1,1,65)", "h.traceg:4:"},
      {"-block dim = (64,1,1)", "-block dim = (0,1,1)", "h.traceg:4:"},
      {"-shmem = 0", "-shmem = 262145",
       "h.traceg:5: -shmem = 262145: expected 0..262144 bytes of shared memory per CTA"},
      {"-shmem = 0", "-shmem = -1", "h.traceg:5:"},
      {"-nregs = 32", "-nregs = 0", "h.traceg:6: -nregs = 0: expected 1..255 registers per thread"},
      {"-nregs = 32", "-nregs = 256", "h.traceg:6: -nregs = 256"},
      {"-binary version = 80", "-binary version = 52", "h.traceg:7: -binary version = 52"},
      {"-binary version = 80", "-binary version = sm_80", "h.traceg:7:"},
      {"-cuda stream id = 0", "-cuda stream id = abc", "h.traceg:8: -cuda stream id = abc"},
      {"-shmem base_addr = 0x00007f2b5a000000", "-shmem base_addr = 7f2b5a000000",
       "h.traceg:9: -shmem base_addr = 7f2b5a000000: expected a hexadecimal address"},
      {"-local mem base_addr = 0x00007f2b58000000", "-local mem base_addr = 0xZZ", "h.traceg:10:"},
      {"-nvbit version = 1.5.5", "-nvbit version =", "h.traceg:11: -nvbit version = : expected"},
      {"-accelsim tracer version = 4", "-accelsim tracer version = 3.1", "h.traceg:12:"},
      {"-accelsim tracer version = 4", "-accelsim tracer version = 0", "h.traceg:12:"},
      {"-enable lineinfo = 0", "-enable lineinfo = 2",
       "h.traceg:13: -enable lineinfo = 2: expected 0 or 1"},
      {"-kernel name = _Z6kernelPf", "-kernel name =",
       "h.traceg:1: -kernel name = : expected a "
       "kernel name"},
      {"-nregs = 32", "-nregs 32", "h.traceg:6: '-nregs 32': expected '-nregs = <1..255"},
      {"-nregs = 32", "-nrgs = 32", "h.traceg:6: unknown header field '-nrgs = 32'"},
      {"-nregs = 32", "nregs = 32", "h.traceg:6: 'nregs = 32': expected a header field"},
      {"-shmem = 0\n", "-shmem = 0\n-shmem = 0\n",
       "h.traceg:6: -shmem appears twice (first at line 5): expected it once"},
  };
  for (const auto& c : cases) {
    EXPECT_THAT(error_of(replace(good, c.from, c.to)), HasSubstr(c.message)) << c.to;
  }
}

TEST(KernelHeader, LineinfoOnlyFromVersion4) {
  const HeaderFields v3{.tracer = "3"};
  std::string text = replace(header(v3), "-accelsim tracer version = 3\n",
                             "-accelsim tracer version = 3\n-enable lineinfo = 0\n");
  EXPECT_THAT(error_of(text), HasSubstr("h.traceg:13: -enable lineinfo in a tracer version 3 "
                                        "trace: expected it only in versions 4 and 5"));
}

TEST(KernelHeader, ClusterDim) {
  HeaderFields f{.binary_version = "90", .grid = "(4,2,1)", .cluster = "(2,2,1)"};
  auto k = kernel_from_text(header(f), "ok.traceg");
  EXPECT_EQ(k->info().cluster, (Dim3{2, 2, 1}));
  EXPECT_EQ(k->info().cluster_line, 14U);
  EXPECT_EQ(kernel_from_text(header(), "ok.traceg")->info().cluster, (Dim3{1, 1, 1}));
  // A cluster of one CTA is no cluster: allowed before sm_90.
  EXPECT_EQ(error_of(header({.cluster = "(1,1,1)"})), "");
}

TEST(KernelHeader, BadClusterDimNamesLineAndExpectation) {
  EXPECT_THAT(error_of(header({.binary_version = "90", .grid = "(6,1,1)", .cluster = "(4,1,1)"})),
              HasSubstr("h.traceg:14: -cluster dim = (4,1,1) with -grid dim = (6,1,1): expected "
                        "every grid dimension to be a multiple of the cluster's"));
  EXPECT_THAT(error_of(header({.binary_version = "80", .grid = "(4,1,1)", .cluster = "(2,1,1)"})),
              HasSubstr("h.traceg:14: -cluster dim = (2,1,1) in an sm_80 kernel: expected "
                        "clusters only in sm_90 or later binaries"));
  EXPECT_THAT(
      error_of(header({.binary_version = "90", .grid = "(128,1,1)", .cluster = "(128,1,1)"})),
      HasSubstr("h.traceg:14: -cluster dim = (128,1,1): expected (x,y,z) with 1..64 CTAs "
                "in total"));
  EXPECT_THAT(error_of(header({.binary_version = "90", .cluster = "(2,1)"})),
              HasSubstr("h.traceg:14: -cluster dim = (2,1): expected"));
}

TEST(KernelHeader, AcceptedVariants) {
  for (std::string tracer : {"1.2", "1.0", "2", "3", "4", "5"}) {
    HeaderFields f;
    f.tracer = tracer;
    EXPECT_EQ(error_of(header(f)), "") << tracer;
  }
  for (std::string bv : {"60", "61", "70", "75", "80", "86", "89", "90"}) {
    HeaderFields f;
    f.binary_version = bv;
    EXPECT_EQ(error_of(header(f)), "") << bv;
  }
  HeaderFields big;
  big.grid = "(1048576,128,1)";  // kMaxGridCtas
  big.block = "(32,32,1)";
  big.nregs = "255";
  big.shmem = "262144";
  EXPECT_EQ(error_of(header(big)), "");
  HeaderFields v4;
  v4.lineinfo_field = false;  // optional in v4/v5
  EXPECT_EQ(error_of(header(v4)), "");
  // CRLF line endings and blank lines are tolerated.
  std::string crlf;
  for (char c : header()) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  EXPECT_EQ(error_of(crlf), "");
}

TEST(KernelHeader, StreamIdAndLargeGrid) {
  HeaderFields f;
  f.grid = "(65536,2048,1)";
  std::string text = replace(header(f), "-cuda stream id = 0", "-cuda stream id = 94259235184");
  auto k = kernel_from_text(text, "ok.traceg");
  EXPECT_EQ(k->info().stream_id, 94259235184);
  EXPECT_EQ(k->info().grid.count(), kMaxGridCtas);
}

// A grid of more CTAs than a trace can hold is refused at its line, before any CTA is
// read (the check that each CTA is traced once keeps a bit per CTA).
TEST(KernelHeader, GridOfMoreCtasThanATraceHoldsIsRefused) {
  HeaderFields f;
  f.grid = "(2147483647,65535,65535)";
  EXPECT_EQ(error_of(header(f)),
            "h.traceg:3: -grid dim = (2147483647,65535,65535) is 9223090559730712575 CTAs: "
            "expected at most 134217728 CTAs in a traced grid");
  f.grid = "(65536,2048,2)";
  EXPECT_THAT(error_of(header(f)), HasSubstr("is 268435456 CTAs: expected at most 134217728"));
}

}  // namespace
}  // namespace sassim::traces
