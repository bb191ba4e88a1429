// Parsing of in-memory traces: line layouts per tracer version, address modes, decode
// once, destination footprints.
#include "traces/text_trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ground/error.h"
#include "tests/traces/trace_text.h"
#include "traces/decoded_cta.h"

namespace sassim::traces {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using trace_text::header;
using trace_text::HeaderFields;

// A CTA of the header's two warps (block (64,1,1)): `warp` runs `lines`, the other one
// has no instructions.
std::string one_warp_cta(const std::string& block, const std::vector<std::string>& lines,
                         int warp = 0) {
  std::string s = "#BEGIN_TB\n\nthread block = " + block + "\n\nwarp = " + std::to_string(warp) +
                  "\ninsts = " + std::to_string(lines.size()) + "\n";
  for (const auto& l : lines) s += l + "\n";
  return s + "warp = " + std::to_string(1 - warp) + "\ninsts = 0\n\n#END_TB\n\n";
}

// The error of reading on from `k` ("" if none).
std::string next_cta_error(KernelTrace& k) {
  try {
    while (k.next_cta()) {
    }
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The one CTA of a trace of the header's grid of two: the trace ends after it, which
// the reader reports as the other CTA missing.
DecodedCta only_cta(KernelTrace& k) {
  auto cta = k.next_cta();
  EXPECT_TRUE(cta.has_value());
  EXPECT_THAT(next_cta_error(k), HasSubstr("the grid (2,1,1) has 2 CTAs, the trace 1: CTA"));
  return cta ? decode(std::move(*cta)) : DecodedCta{};
}

std::vector<std::uint64_t> addresses_of(const DecodedCta& cta, const isa::WarpInst& inst) {
  return {cta.addresses.begin() + inst.addr_begin,
          cta.addresses.begin() + inst.addr_begin + inst.addr_count};
}

TEST(TextTrace, HeaderFields) {
  auto k = kernel_from_text(header(), "mem.traceg");
  const KernelInfo& info = k->info();
  EXPECT_EQ(info.name, "_Z6kernelPf");
  EXPECT_EQ(info.id, 1u);
  EXPECT_EQ(info.grid, (Dim3{2, 1, 1}));
  EXPECT_EQ(info.block, (Dim3{64, 1, 1}));
  EXPECT_EQ(info.warps_per_cta(), 2u);
  EXPECT_EQ(info.nregs, 32u);
  EXPECT_EQ(info.binary_version, 80);
  EXPECT_EQ(info.arch, isa::Arch::kSm80);
  EXPECT_EQ(info.shmem_base, 0x00007f2b5a000000u);
  EXPECT_EQ(info.local_base, 0x00007f2b58000000u);
  EXPECT_EQ(info.tracer_version, "4");
  EXPECT_EQ(info.source, "mem.traceg");
  // A header without CTAs: every CTA of the grid is missing.
  EXPECT_EQ(next_cta_error(*k),
            "mem.traceg: the grid (2,1,1) has 2 CTAs, the trace 0: CTAs (0,0,0) and (1,0,0) are "
            "missing");
}

TEST(TextTrace, Version4LineAndDecodeOnce) {
  std::string text = header() + one_warp_cta("1,0,0", {
                                                          "0000 ffffffff 1 R1 MOV 0 0",
                                                          "0010 ffffffff 1 R4 IMAD.WIDE 2 R2 R3 0",
                                                          "0020 0000ffff 1 R8 LDG.E.128 1 R4 16 1 "
                                                          "0x1000 16",
                                                          "0000 ffffffff 1 R1 MOV 0 0",
                                                      });
  auto k = kernel_from_text(text, "v4.traceg");
  DecodedCta cta = only_cta(*k);
  EXPECT_EQ(cta.id, (Dim3{1, 0, 0}));
  ASSERT_EQ(cta.warps.size(), 2u);
  EXPECT_EQ(cta.warps[1].warp_in_cta, 1u);
  EXPECT_TRUE(cta.warps[1].insts.empty());
  const auto& insts = cta.warps[0].insts;
  ASSERT_EQ(insts.size(), 4u);
  EXPECT_EQ(k->statics().size(), 3u);  // PC 0x0 decoded once
  EXPECT_EQ(insts[0].static_index, insts[3].static_index);
  EXPECT_EQ(insts[2].active_mask, 0x0000ffffu);

  const isa::StaticInst& imad = k->statics()[insts[1].static_index];
  EXPECT_EQ(imad.pc, 0x10u);
  ASSERT_EQ(imad.num_dst, 1);
  EXPECT_EQ(imad.dst[0].first, 4);
  EXPECT_EQ(imad.dst[0].count, 2);  // IMAD.WIDE writes R4..R5
  ASSERT_EQ(imad.num_src, 2);
  EXPECT_EQ(imad.src[0], 2);
  EXPECT_EQ(imad.src[1], 3);

  const isa::StaticInst& ldg = k->statics()[insts[2].static_index];
  EXPECT_EQ(ldg.dst[0].count, 4);
  EXPECT_EQ(ldg.mem_width_bytes, 16);
  EXPECT_EQ(ldg.op.space, isa::MemSpace::kGlobal);
  EXPECT_EQ(insts[2].addr_count, 16u);
  EXPECT_EQ(addresses_of(cta, insts[2])[15], 0x1000u + 15 * 16);
  EXPECT_EQ(insts[0].addr_count, 0u);
}

TEST(TextTrace, AddressModeListGivesOneAddressPerActiveLaneInOrder) {
  std::string text =
      header() + one_warp_cta("0,0,0", {"0000 00000015 1 R2 LDG.E 1 R4 4 0 0x100 0x7 0x2000"});
  auto k = kernel_from_text(text, "list.traceg");
  DecodedCta cta = only_cta(*k);
  EXPECT_THAT(addresses_of(cta, cta.warps[0].insts[0]), ElementsAre(0x100u, 0x7u, 0x2000u));
}

TEST(TextTrace, AddressModeBaseStride) {
  std::string text =
      header() + one_warp_cta("0,0,0", {"0000 0000000f 0 STG.E 2 R4 R6 4 1 0x7f0000001000 4",
                                        "0010 00000007 0 STG.E 2 R4 R6 4 1 0x1000 -8"});
  auto k = kernel_from_text(text, "stride.traceg");
  DecodedCta cta = only_cta(*k);
  EXPECT_THAT(addresses_of(cta, cta.warps[0].insts[0]),
              ElementsAre(0x7f0000001000u, 0x7f0000001004u, 0x7f0000001008u, 0x7f000000100cu));
  EXPECT_THAT(addresses_of(cta, cta.warps[0].insts[1]), ElementsAre(0x1000u, 0xff8u, 0xff0u));
}

TEST(TextTrace, AddressModeBaseDeltaIsRelativeToThePreviousAddress) {
  std::string text = header() + one_warp_cta("0,0,0", {"0000 8000000b 1 R2 LDS 1 R4 4 2 0x4000 "
                                                       "144 -992 65296"});
  auto k = kernel_from_text(text, "delta.traceg");
  DecodedCta cta = only_cta(*k);
  EXPECT_THAT(
      addresses_of(cta, cta.warps[0].insts[0]),
      ElementsAre(0x4000u, 0x4000u + 144, 0x4000u + 144 - 992, 0x4000u + 144 - 992 + 65296));
}

TEST(TextTrace, ZeroMaskGivesNoAddressesButConsumesTheFields) {
  // As in the A100 traces: "STG.E.64 2 R2 R10 8 1 0x0 0 0" with mask 0.
  HeaderFields f;
  f.tracer = "5";
  std::string text = header(f) + one_warp_cta("0,0,0", {"1f80 00000000 0 STG.E.64 2 R2 R10 8 1 "
                                                        "0x0 0 0",
                                                        "1f90 00000000 0 STG.E.64 2 R2 R12 8 2 "
                                                        "0x0 0",
                                                        "1fa0 00000000 0 STG.E.64 2 R2 R12 8 0 "
                                                        "0"});
  auto k = kernel_from_text(text, "mask0.traceg");
  DecodedCta cta = only_cta(*k);
  for (const auto& inst : cta.warps[0].insts) EXPECT_EQ(inst.addr_count, 0u);
  EXPECT_TRUE(cta.addresses.empty());
}

TEST(TextTrace, TmaLinesCarryTheirOwnFieldsInModesThreeAndFour) {
  HeaderFields f;
  f.tracer = "5";
  f.binary_version = "90";
  std::string text =
      header(f) +
      one_warp_cta("0,0,0", {"0100 ffffffff 0 UTMALDG.2D 2 R4 R6 0 0x7f0000000400 0 4096 0 3 2 "
                             "0x7e0000100000 0x7e0000100800 0",
                             "0110 ffffffff 0 UBLKCP.S.G 2 R4 R6 0 0x7f0000000408 1 0x3 2048 0 4 "
                             "0x7e0000200000 3 128 -64 0",
                             "0120 00000001 0 SYNCS.ARRIVE.TRANS64 1 R4 0 0"});
  auto k = kernel_from_text(text, "tma.traceg");
  DecodedCta cta = only_cta(*k);
  ASSERT_EQ(cta.warps[0].insts.size(), 3u);
  // Each keeps its record (kernel_trace.h): mbarrier, value, transfers.
  const auto record = [&](std::size_t i) {
    const auto& inst = cta.warps[0].insts[i];
    return std::vector<std::uint64_t>(cta.addresses.begin() + inst.addr_begin,
                                      cta.addresses.begin() + inst.addr_begin + inst.addr_count);
  };
  EXPECT_EQ(record(0),
            (std::vector<std::uint64_t>{0x7f0000000400, 4096, 0, 0x7e0000100000, 0x7e0000100800}));
  // Multicast to the CTAs of cluster ranks 0 and 1.
  EXPECT_EQ(record(1), (std::vector<std::uint64_t>{0x7f0000000408, 2048, 0x3, 0x7e0000200000,
                                                   0x7e0000200080, 0x7e0000200040}));
  EXPECT_EQ(record(2), (std::vector<std::uint64_t>{kNoTraceValue, kNoTraceValue, 0}));
}

TEST(TextTrace, SyncsLinesKeepTheirBarrierAndRecordedValue) {
  HeaderFields f;
  f.tracer = "5";
  f.binary_version = "90";
  std::string text =
      header(f) + one_warp_cta("0,0,0", {"0100 00000003 0 SYNCS.ARRIVE.TRANS64 1 R4 8 1 "
                                         "0x7f0000000400 0 -4097",
                                         "0110 ffffffff 0 SYNCS.PHASECHK.TRANS64.TRYWAIT 1 R4 8 "
                                         "1 0x7f0000000400 0 8",
                                         "0120 00000001 0 UTMALDG.2D 0 16 0 0x10000 0"});
  DecodedCta cta = only_cta(*kernel_from_text(text, "syncs.traceg"));
  const auto& insts = cta.warps[0].insts;
  ASSERT_EQ(insts.size(), 3u);
  // The first thread's address and -(1 + 4096): 4096 expect-tx bytes.
  EXPECT_EQ(insts[0].addr_count, kAsyncRecordWords);
  EXPECT_EQ(cta.addresses[insts[0].addr_begin], 0x7f0000000400u);
  EXPECT_EQ(cta.addresses[insts[0].addr_begin + 1], 4096u);
  // A non-negative immediate is the instruction's own, not a recorded value.
  EXPECT_EQ(cta.addresses[insts[1].addr_begin + 1], kNoTraceValue);
  // A copy with per-thread addresses only: no barrier, one sector per address.
  EXPECT_EQ(insts[2].addr_count, kAsyncRecordWords + 1);
  EXPECT_EQ(cta.addresses[insts[2].addr_begin], kNoTraceValue);
  EXPECT_EQ(cta.addresses[insts[2].addr_begin + 1], 32u);
  EXPECT_EQ(cta.addresses[insts[2].addr_begin + 2], 0u);
  EXPECT_EQ(cta.addresses[insts[2].addr_begin + 3], 0x10000u);
}

TEST(TextTrace, BadTmaAddressModeIsNamed) {
  HeaderFields f;
  f.tracer = "5";
  f.binary_version = "90";
  std::string text = header(f) + one_warp_cta("0,0,0", {"0100 ffffffff 0 UTMALDG.2D 2 R4 R6 0 "
                                                        "0x7f0000000400 0 4096 0 1 0x10 0"});
  try {
    auto k = kernel_from_text(text, "tma.traceg");
    k->next_cta();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("bad TMA address mode 1 (expected 3 list, 4 base+delta)"));
  }
}

TEST(TextTrace, MulticastMaskBeyondSixteenCtasIsNamed) {
  HeaderFields f;
  f.tracer = "5";
  f.binary_version = "90";
  std::string text = header(f) + one_warp_cta("0,0,0", {"0100 ffffffff 0 UTMALDG.2D 2 R4 R6 0 "
                                                        "0x7f0000000400 1 0x10001 4096 0 3 1 "
                                                        "0x10000 0"});
  try {
    auto k = kernel_from_text(text, "tma.traceg");
    k->next_cta();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("tma.traceg:"));
    EXPECT_THAT(e.what(), HasSubstr("multicast CTA mask 0x10001: expected bits 0-15 (16 CTAs at "
                                    "most)"));
  }
}

TEST(TextTrace, Version5ImmediateAndLineinfo) {
  HeaderFields f;
  f.tracer = "5";
  f.lineinfo = 1;
  std::string text =
      header(f) +
      one_warp_cta("0,0,0", {"12 0030 ffffffff 1 R1 IADD3 2 R1 R255 0 -8",
                             "13 0040 ffffffff 1 R2 LDG.E.64 1 R4 8 1 0x10 8 2139095040",
                             "14 0050 ffffffff 0 ULDC.64 0 0 18446744073709551615"});
  auto k = kernel_from_text(text, "v5.traceg");
  DecodedCta cta = only_cta(*k);
  const auto& insts = cta.warps[0].insts;
  ASSERT_EQ(insts.size(), 3u);
  const isa::StaticInst& iadd = k->statics()[insts[0].static_index];
  EXPECT_EQ(iadd.pc, 0x30u);
  ASSERT_EQ(iadd.num_src, 1);  // RZ dropped
  EXPECT_EQ(iadd.src[0], 1);
  EXPECT_EQ(k->statics()[insts[1].static_index].dst[0].count, 2);
  EXPECT_EQ(insts[1].addr_count, 32u);
  EXPECT_EQ(addresses_of(cta, insts[1])[31], 0x10u + 31 * 8);
  // The immediate is kept (DEPBAR.LE SB0, N reads its N from it).
  EXPECT_EQ(iadd.immediate, -8);
  EXPECT_EQ(k->statics()[insts[1].static_index].immediate, 2139095040);
  EXPECT_EQ(k->statics()[insts[2].static_index].immediate, -1);  // 2^64 - 1 as a bit pattern
}

TEST(TextTrace, EarlierVersionsHaveNoImmediate) {
  std::string text = header() + one_warp_cta("1,0,0", {"0000 ffffffff 0 DEPBAR.LE 0 0"});
  auto k = kernel_from_text(text, "v4.traceg");
  DecodedCta cta = only_cta(*k);
  EXPECT_EQ(k->statics()[cta.warps[0].insts[0].static_index].immediate, 0);
}

TEST(TextTrace, Version3HasNoIdsAndVersion12Has) {
  HeaderFields v3;
  v3.tracer = "3";
  v3.binary_version = "70";
  auto k3 = kernel_from_text(
      header(v3) +
          one_warp_cta("0,0,0", {"0090 ffffffff 1 R0 LDG.E.U8.SYS 1 R4 1 1 0x7f7393720000 1"}),
      "v3.traceg");
  DecodedCta cta3 = only_cta(*k3);
  EXPECT_EQ(addresses_of(cta3, cta3.warps[0].insts[0])[2], 0x7f7393720002u);
  EXPECT_EQ(k3->statics()[0].op.access_bytes, 1);

  HeaderFields v12;
  v12.tracer = "1.2";
  v12.binary_version = "75";
  auto k12 = kernel_from_text(
      header(v12) + one_warp_cta("1,0,0",
                                 {"1 0 0 1 0090 ffffffff 1 R4 LDG.E.64.SYS 1 R4 8 1 "
                                  "0x00007f2d93400000 8"},
                                 1),
      "v12.traceg");
  DecodedCta cta12 = only_cta(*k12);
  ASSERT_EQ(cta12.warps[1].insts.size(), 1u);
  EXPECT_EQ(addresses_of(cta12, cta12.warps[1].insts[0])[1], 0x00007f2d93400008u);
  EXPECT_EQ(k12->info().tracer_version, "1.2");
}

TEST(TextTrace, Version12LineForAnotherWarpIsAnError) {
  HeaderFields v12;
  v12.tracer = "1.2";
  auto k = kernel_from_text(
      header(v12) + one_warp_cta("0,0,0", {"0 0 0 1 0000 ffffffff 0 NOP 0 0"}), "ids.traceg");
  try {
    k->next_cta();
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("ids.traceg:22:"));
    EXPECT_THAT(e.what(), HasSubstr("CTA (0,0,0) warp 1: expected CTA (0,0,0) warp 0"));
  }
}

TEST(TextTrace, DestinationRules) {
  std::string text = header() + one_warp_cta("0,0,0", {
                                                          "0000 ffffffff 1 R255 IADD3 0 0",
                                                          "0010 ffffffff 2 R8 R12 DADD 2 R2 R4 0",
                                                          "0020 ffffffff 2 R255 R6 IADD3 0 0",
                                                          "0030 ffffffff 1 R92 LDSM.16.M88.4 1 R3 "
                                                          "2 1 0x0 16",
                                                          "0040 ffffffff 1 R140 HMMA.16816.F16 3 "
                                                          "R16 R94 R255 0",
                                                          "0050 ffffffff 1 R140 HMMA.16816.F32 3 "
                                                          "R16 R94 R255 0",
                                                      });
  auto k = kernel_from_text(text, "dst.traceg");
  only_cta(*k);
  const StaticInstTable& s = k->statics();
  EXPECT_EQ(s[0].num_dst, 0);  // RZ destination dropped
  ASSERT_EQ(s[1].num_dst, 2);
  EXPECT_EQ(s[1].dst[0].count, 2);  // first destination: the opcode's footprint
  EXPECT_EQ(s[1].dst[1].first, 12);
  EXPECT_EQ(s[1].dst[1].count, 1);  // later destinations: one register
  ASSERT_EQ(s[2].num_dst, 1);
  EXPECT_EQ(s[2].dst[0].first, 6);
  EXPECT_EQ(s[2].dst[0].count, 1);
  EXPECT_EQ(s[3].dst[0].count, 4);
  EXPECT_EQ(s[4].dst[0].count, 2);
  EXPECT_EQ(s[5].dst[0].count, 4);
}

TEST(TextTrace, SamePcWithAnotherOpcodeIsAnError) {
  std::string text = header() + one_warp_cta("0,0,0", {"0000 ffffffff 1 R1 MOV 0 0",
                                                       "0000 ffffffff 1 R1 IADD3 0 0"});
  auto k = kernel_from_text(text, "pc.traceg");
  try {
    k->next_cta();
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("pc.traceg:24: PC 0x0000 has opcode IADD3 here but MOV at "
                                    "line 23"));
  }
}

TEST(TextTrace, CtasAreReadOneAtATime) {
  // The second CTA is broken: the first one is still delivered.
  std::string text = header() + one_warp_cta("0,0,0", {"0000 ffffffff 0 NOP 0 0"}) +
                     one_warp_cta("1,0,0", {"0000 ffffffff 0 NOP 0 7"});
  auto k = kernel_from_text(text, "lazy.traceg");
  auto first = k->next_cta();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->instruction_count(), 1u);
  EXPECT_THROW(k->next_cta(), Error);
}

TEST(TextTrace, WorkloadFromKernels) {
  std::vector<std::unique_ptr<KernelTrace>> kernels;
  HeaderFields a;
  a.binary_version = "90";
  kernels.push_back(kernel_from_text(header(a), "a.traceg"));
  kernels.push_back(kernel_from_text(header(), "b.traceg"));
  auto w = workload_from_kernels(std::move(kernels));
  EXPECT_EQ(w->first_kernel_info()->arch, isa::Arch::kSm90);
  auto c1 = w->next();
  ASSERT_TRUE(c1.has_value());
  EXPECT_EQ(std::get<KernelLaunch>(*c1).kernel->info().source, "a.traceg");
  EXPECT_EQ(w->first_kernel_info()->source, "a.traceg");  // still the first kernel
  auto c2 = w->next();
  ASSERT_TRUE(c2.has_value());
  EXPECT_EQ(std::get<KernelLaunch>(*c2).kernel->info().source, "b.traceg");
  EXPECT_FALSE(w->next().has_value());
  EXPECT_THAT(w->description(), HasSubstr("2 in-memory kernels"));
}

}  // namespace
}  // namespace sassim::traces
