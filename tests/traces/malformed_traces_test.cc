// Malformed inputs (fixtures in tests/data/traces/) throw sassim::Error whose message
// names the file, the line and what was expected.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "ground/error.h"
#include "traces/accelsim_reader.h"

namespace sassim::traces {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

const std::filesystem::path kData = std::filesystem::path(SASSIM_TEST_DATA_DIR) / "traces";

// Opens `name` and reads all its CTAs; returns the error message ("" if none).
std::string read_kernel_error(const std::string& name) {
  try {
    auto kernel = open_accelsim_kernel(kData / name);
    while (kernel->next_cta()) {
    }
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string read_workload_error(const std::string& folder) {
  try {
    auto workload = open_accelsim_workload(kData / folder);
    while (workload->next()) {
    }
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string at(const std::string& name, int line) {
  return (kData / name).string() + ":" + std::to_string(line) + ": ";
}

TEST(MalformedTraces, TruncatedInsideAWarp) {
  EXPECT_THAT(read_kernel_error("truncated.traceg"),
              AllOf(HasSubstr(at("truncated.traceg", 24)),
                    HasSubstr("the file ends inside warp 0 of CTA (0,0,0) after 2 of its insts = "
                              "3 instruction lines")));
}

TEST(MalformedTraces, TruncatedInsideACta) {
  EXPECT_THAT(read_kernel_error("truncated_cta.traceg"),
              AllOf(HasSubstr(at("truncated_cta.traceg", 25)),
                    HasSubstr("the file ends inside CTA (0,0,0) that begins at line 17: expected "
                              "#END_TB")));
}

TEST(MalformedTraces, BadHeaderValue) {
  EXPECT_THAT(read_kernel_error("bad_grid.traceg"),
              AllOf(HasSubstr(at("bad_grid.traceg", 3)), HasSubstr("-grid dim = (0,1,1): expected "
                                                                   "(x,y,z) with x in "
                                                                   "1..2147483647")));
  EXPECT_THAT(read_kernel_error("bad_tracer_version.traceg"),
              AllOf(HasSubstr(at("bad_tracer_version.traceg", 12)),
                    HasSubstr("-accelsim tracer version = 6: expected one of 1.2 (or another "
                              "1.x), 2, 3, 4, 5")));
}

TEST(MalformedTraces, BinaryVersionZero) {
  EXPECT_THAT(read_kernel_error("binary_version_0.traceg"),
              AllOf(HasSubstr(at("binary_version_0.traceg", 7)),
                    HasSubstr("-binary version = 0: expected one of 60, 61, 70, 75, 80, 86, 89, "
                              "90")));
}

TEST(MalformedTraces, NregsFromTheWild) {
  EXPECT_THAT(read_kernel_error("nregs_21955/kernel-3.traceg"),
              HasSubstr(at("nregs_21955/kernel-3.traceg", 6) +
                        "-nregs = 21955: expected 1..255 registers per thread"));
}

TEST(MalformedTraces, MissingHeaderField) {
  EXPECT_THAT(read_kernel_error("missing_nregs.traceg"),
              AllOf(HasSubstr(at("missing_nregs.traceg", 15)),
                    HasSubstr("the kernel header has no -nregs: expected '-nregs = <1..255 "
                              "registers per thread>'")));
}

TEST(MalformedTraces, UnknownOpcodeNamesOpcodeArchAndLine) {
  // XMAD is a Pascal opcode; this kernel is sm_70.
  EXPECT_THAT(read_kernel_error("unknown_opcode.traceg"),
              AllOf(HasSubstr(at("unknown_opcode.traceg", 24)),
                    HasSubstr("unknown opcode XMAD.MRG for sm_70 (-binary version = 70): expected "
                              "an opcode of the sm_70 instruction set")));
}

TEST(MalformedTraces, BadAddressMode) {
  EXPECT_THAT(read_kernel_error("bad_address_mode.traceg"),
              AllOf(HasSubstr(at("bad_address_mode.traceg", 23)),
                    HasSubstr("bad address mode 7 (expected 0 list, 1 base+stride, 2 "
                              "base+delta)")));
}

TEST(MalformedTraces, WrongInstsCount) {
  EXPECT_THAT(read_kernel_error("too_few_insts.traceg"),
              AllOf(HasSubstr(at("too_few_insts.traceg", 25)),
                    HasSubstr("warp 0 of CTA (0,0,0) declares insts = 3 but has 2 instruction "
                              "lines")));
  EXPECT_THAT(read_kernel_error("too_many_insts.traceg"),
              AllOf(HasSubstr(at("too_many_insts.traceg", 24)),
                    HasSubstr("warp 0 of CTA (0,0,0) has more instruction lines than its insts = 1 "
                              "(expected 'warp = <n>' or #END_TB)")));
}

TEST(MalformedTraces, CtaAndWarpOutOfRange) {
  EXPECT_THAT(read_kernel_error("cta_outside_grid.traceg"),
              AllOf(HasSubstr(at("cta_outside_grid.traceg", 19)),
                    HasSubstr("thread block = 2,0,0: expected a CTA inside the grid (2,1,1)")));
  EXPECT_THAT(read_kernel_error("warp_out_of_range.traceg"),
              AllOf(HasSubstr(at("warp_out_of_range.traceg", 21)),
                    HasSubstr("warp = 2: expected a warp index below 2 (block 64x1x1)")));
}

// A trace must hold every CTA of its grid once and every warp of each CTA's block.
TEST(MalformedTraces, KernelWithoutCtas) {
  EXPECT_EQ(read_kernel_error("no_ctas.traceg"),
            (kData / "no_ctas.traceg").string() +
                ": the grid (2,1,1) has 2 CTAs, the trace 0: CTAs (0,0,0) and (1,0,0) are "
                "missing");
}

TEST(MalformedTraces, TruncatedAtACtaBoundary) {
  EXPECT_EQ(read_kernel_error("missing_ctas.traceg"),
            (kData / "missing_ctas.traceg").string() +
                ": the grid (4,1,1) has 4 CTAs, the trace 2: CTAs (2,0,0) and (3,0,0) are "
                "missing");
}

TEST(MalformedTraces, DuplicateCta) {
  EXPECT_EQ(read_kernel_error("duplicate_cta.traceg"),
            at("duplicate_cta.traceg", 30) +
                "thread block = 0,0,0: CTA (0,0,0) appears twice in the trace: expected each CTA "
                "of the grid once");
}

TEST(MalformedTraces, GridOfMoreCtasThanATraceHolds) {
  EXPECT_EQ(read_kernel_error("huge_grid.traceg"),
            at("huge_grid.traceg", 3) +
                "-grid dim = (2147483647,65535,65535) is 9223090559730712575 CTAs: expected at "
                "most 134217728 CTAs in a traced grid");
}

TEST(MalformedTraces, FewerWarpsThanTheBlockNeeds) {
  EXPECT_EQ(read_kernel_error("missing_warp.traceg"),
            at("missing_warp.traceg", 26) +
                "CTA (0,0,0) that begins at line 17 has 1 of the 2 warps of its block (33,1,1): "
                "warp 1 is missing");
}

TEST(MalformedTraces, LeftoverToken) {
  EXPECT_THAT(read_kernel_error("leftover_token.traceg"),
              AllOf(HasSubstr(at("leftover_token.traceg", 23)),
                    HasSubstr("unexpected '17' after the last field: expected the end of the "
                              "line")));
}

TEST(MalformedTraces, MissingKernelFile) {
  EXPECT_THAT(
      read_workload_error("missing_kernel"),
      AllOf(HasSubstr(at("missing_kernel/kernelslist.g", 3)),
            HasSubstr("kernel trace " + (kData / "missing_kernel/kernel-2.traceg").string() +
                      " not found (nor " + (kData / "missing_kernel/kernel-2.traceg").string() +
                      ".xz nor .zst)")));
}

TEST(MalformedTraces, BadKernelsListLine) {
  EXPECT_THAT(read_workload_error("bad_kernelslist"),
              AllOf(HasSubstr(at("bad_kernelslist/kernelslist.g", 3)),
                    HasSubstr("'MemcpyHtoD,0x10': expected 'MemcpyHtoD,<hex address>,<decimal "
                              "bytes>'")));
}

TEST(MalformedTraces, MissingFilesAndFolders) {
  EXPECT_THAT(read_kernel_error("no_such_kernel.traceg"),
              AllOf(HasSubstr("no_such_kernel.traceg"), HasSubstr("no such kernel trace")));
  EXPECT_THAT(read_workload_error("no_such_folder"), HasSubstr("no such file or folder"));
  EXPECT_THAT(read_workload_error("nregs_21955"), HasSubstr("no kernelslist.g in this folder"));
}

}  // namespace
}  // namespace sassim::traces
