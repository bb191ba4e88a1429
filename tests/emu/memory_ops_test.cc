// Atomics, reductions and local memory; the trace lines memory instructions produce.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/emu/emu_rig.h"
#include "traces/emu/trace_writer.h"

namespace sassim::emu::testing {
namespace {

uint32_t word(const std::vector<uint8_t>& bytes, size_t index) {
  uint32_t v;
  std::memcpy(&v, bytes.data() + 4 * index, 4);
  return v;
}

TEST(EmuMemoryOps, AtomicsReductionsAndLocalMemory) {
  Rig rig;
  const uint64_t base = rig.memory().allocate("counters", 64);
  rig.add("S2R", {R(0), SR("SR_LANEID")})
      .add("MOV", {R(2), I(static_cast<int64_t>(base & 0xffffffffU))})
      .add("MOV", {R(3), I(static_cast<int64_t>(base >> 32))})
      .add("MOV", {R(4), I(1)})
      .add("ATOMG.E.ADD.STRONG.GPU", {P(7), R(5), M(2, true), R(4)})
      .add("MOV", {R(6), I(std::bit_cast<uint32_t>(0.5F))})
      .add("RED.E.ADD.F32.FTZ.RN.STRONG.GPU", {M(2, true, 4), R(6)})
      .add("ATOMG.E.MAX.S32.STRONG.GPU", {P(7), R(7), M(2, true, 8), R(0)})
      .add("MOV", {R(10), I(8)})
      .add("STL", {M(10, false, 4), R(0)})
      .add("LDL", {R(11), M(10, false, 4)})
      .add("ATOMS.ADD", {R(12), M(255, false, 16), R(4)})
      .add("EXIT", {});
  rig.run();
  const std::vector<uint8_t>& counters = rig.memory().buffer(0);
  EXPECT_EQ(word(counters, 0), 32U);
  EXPECT_EQ(word(counters, 1), std::bit_cast<uint32_t>(16.0F));
  EXPECT_EQ(word(counters, 2), 31U);
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(rig.reg(5, l), l);   // lanes apply their atomics in lane order
    EXPECT_EQ(rig.reg(11, l), l);  // local memory is per thread
    EXPECT_EQ(rig.reg(12, l), l);
  }
}

TEST(EmuMemoryOps, TraceLinesCarryMasksRegistersAndCompressedAddresses) {
  Rig rig;
  rig.add("S2R", {R(0), SR("SR_LANEID")})
      .add("ISETP.LT.U32.AND", {P(0), P(7), R(0), I(4), P(7)})
      .add("SHF.L.U32", {R(1), R(0), I(2), R(255)})
      .add("STS", {M(1), R(0)}, "@P0")                                   // 4 lanes, stride 4
      .add("LOP3.LUT", {R(2), R(1), I(4), R(255), I(0xc0), P(7, true)})  // (lane & 1) * 4
      .add("LDS", {R(3), M(2, false, 0x40)}, "@P0")                      // 0x40, 0x44, 0x40, 0x44
      .add("EXIT", {});
  rig.run();
  const Program& program = rig.program();
  const std::filesystem::path folder = std::filesystem::path(::testing::TempDir()) / "emu_lines";
  {
    TraceWriter writer(folder, traces::Compression::kNone, program);
    writer.write_header(TraceHeader{"test_kernel", {1, 1, 1}, {32, 1, 1}, 0, 8, 80});
    writer.write_cta(rig.cta());
    writer.close();
  }
  std::ifstream in(folder / "kernel-1.traceg");
  std::stringstream text;
  text << in.rdbuf();
  const std::string t = text.str();
  EXPECT_NE(t.find("-accelsim tracer version = 5\n"), std::string::npos);
  EXPECT_NE(t.find("warp = 0\ninsts = 7\n"), std::string::npos);
  EXPECT_NE(t.find("0020 ffffffff 1 R1 SHF.L.U32 2 R0 R255 0 2\n"), std::string::npos) << t;
  EXPECT_NE(t.find("0030 0000000f 0 STS 2 R1 R0 4 1 0x0 4 0\n"), std::string::npos) << t;
  EXPECT_NE(t.find("0050 0000000f 1 R3 LDS 1 R2 4 2 0x40 4 -4 4 0\n"), std::string::npos) << t;
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace sassim::emu::testing
