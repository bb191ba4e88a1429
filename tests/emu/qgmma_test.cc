// QGMMA.64xNx32.F32 with 8-bit operands in the executor: the decoder's reading of the
// mnemonic, and the product against one computed here from the formats' definitions,
// with operands in shared memory without swizzle and with the 128-byte swizzle
// (K-major, 8-row core-matrix groups of 16 bytes), E4M3 codes across the whole range
// (subnormals, the largest finite values, both signs), E5M2 for B, and the warp's 16
// rows chosen by its index in the warpgroup.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "ground/error.h"
#include "traces/emu/exec.h"
#include "traces/sass/listing.h"

namespace sassim::emu {
namespace {

constexpr uint32_t kN = 24;

// Finite codes spread over the range: E4M3 avoids S.1111.111 (NaN); E5M2 avoids the
// exponent 11111 (infinities, NaNs) and exponents above 18, so that the sums stay exact
// in double.
uint8_t a_code(uint32_t row, uint32_t k) {
  const uint32_t magnitude = (row * 37 + k * 11) % 0x7f;  // 0x00..0x7e
  return static_cast<uint8_t>(magnitude | ((row + k) % 3 == 0 ? 0x80U : 0U));
}
uint8_t b_code(uint32_t col, uint32_t k, bool e5m2) {
  const uint32_t magnitude = e5m2 ? (col * 13 + k * 5) % 0x4c : (col * 29 + k * 7) % 0x7f;
  return static_cast<uint8_t>(magnitude | ((col + 2 * k) % 5 == 0 ? 0x80U : 0U));
}

// (-1)^s x 2^(e - bias) x (1 + m / 2^mbits), or 2^(1 - bias) x m / 2^mbits for e = 0.
double value(uint8_t bits, bool e5m2) {
  const int mbits = e5m2 ? 2 : 3, ebits = e5m2 ? 5 : 4, bias = e5m2 ? 15 : 7;
  const int e = (bits >> mbits) & ((1 << ebits) - 1), m = bits & ((1 << mbits) - 1);
  const double magnitude =
      e == 0 ? std::ldexp(m, 1 - bias - mbits) : std::ldexp((1 << mbits) + m, e - bias - mbits);
  return (bits & 0x80) != 0 ? -magnitude : magnitude;
}

// Byte offset of element (row, k) of a K-major 8-bit operand at `start`: without
// swizzle, 8 x 16-byte core matrices (the next 16 of K 128 bytes on, the next 8 rows
// 256); with the 128-byte swizzle, 128-byte rows in groups of 8 (1024 bytes), 16-byte
// chunk j of row r at chunk j ^ (r % 8).
uint32_t offset(bool swizzled, uint32_t start, uint32_t row, uint32_t k) {
  if (!swizzled) return start + (row / 8) * 256 + (k / 16) * 128 + (row % 8) * 16 + k % 16;
  const uint32_t a = start + (row / 8) * 1024 + (row % 8) * 128 + k;
  return a ^ (((a >> 7) & 7U) << 4);
}

uint64_t descriptor(bool swizzled, uint32_t start) {
  const uint64_t lo = (start >> 4) | ((swizzled ? 1U : 128U >> 4) << 16);
  const uint64_t hi = (swizzled ? 1024U >> 4 : 256U >> 4) | (swizzled ? 1U << 30 : 0U);
  return lo | (hi << 32);
}

class Qgmma : public ::testing::Test {
 protected:
  void SetUp() override {
    cta_.shared.assign(32 * 1024, 0);
    cta_.warps.resize(3);
  }
  // A (64 rows) at 0x0000 / 0x2000 (swizzled), B (N rows) at 0x1000 / 0x4000; the
  // swizzled A starts 32 bytes into its rows, as the kernel's second k step does.
  void fill(bool swizzled) {
    const uint32_t a_at = swizzled ? 0x2000 : 0x0000, b_at = swizzled ? 0x4000 : 0x1000;
    const uint32_t a_k0 = swizzled ? 32 : 0;
    for (uint32_t k = 0; k < 32; ++k) {
      for (uint32_t r = 0; r < 64; ++r)
        cta_.shared[offset(swizzled, a_at, r, a_k0 + k)] = a_code(r, k);
      for (uint32_t c = 0; c < kN; ++c)
        cta_.shared[offset(swizzled, b_at, c, k)] = b_code(c, k, e5m2_b_);
    }
    const uint64_t da = descriptor(swizzled, a_at + a_k0), db = descriptor(swizzled, b_at);
    w().ur[4] = static_cast<uint32_t>(da);
    w().ur[5] = static_cast<uint32_t>(da >> 32);
    w().ur[6] = static_cast<uint32_t>(db);
    w().ur[7] = static_cast<uint32_t>(db >> 32);
  }
  Warp& w() { return cta_.warps[2]; }  // warp 2: rows 32..47 of the 64
  Inst qgmma() const {
    Inst inst;
    inst.op = Op::kHgmma;
    inst.unit = Unit::kTensor;
    inst.mma_n = kN;
    inst.flags = flag::kFp8;
    inst.sub = e5m2_b_ ? 2 : 0;
    inst.dst[0] = 24;
    inst.mem.ureg = 4;
    inst.nsrc = 1;
    inst.src[0] = Src{SrcKind::kReg, 0, HalfSel::kNone, 24};
    return inst;
  }
  void run(const Inst& inst) {
    w().index = 2;
    for (unsigned l = 0; l < 32; ++l) {
      for (uint32_t i = 0; i < kN / 2; ++i)
        w().reg(static_cast<uint16_t>(24 + i), l) = std::bit_cast<uint32_t>(float(l + i) / 4);
    }
    ExecContext ctx{memory_, cta_, bank_, program_, {128, 1, 1}, {1, 1, 1}, 0, 0};
    exec_wgmma(inst, w(), ~0U, ctx);
  }
  // Register i of lane l holds row 32 + l/4 (+8 for i % 4 >= 2), column 8 (i / 4) +
  // 2 (l % 4) + i % 2. Every product and the sum of 32 of them are exact in double.
  void expect_product() {
    for (unsigned l = 0; l < 32; ++l) {
      for (uint32_t i = 0; i < kN / 2; ++i) {
        const uint32_t row = 32 + l / 4 + 8 * ((i % 4) / 2);
        const uint32_t col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
        double want = double(l + i) / 4;
        for (uint32_t k = 0; k < 32; ++k)
          want += value(a_code(row, k), false) * value(b_code(col, k, e5m2_b_), e5m2_b_);
        ASSERT_EQ(std::bit_cast<float>(w().reg(static_cast<uint16_t>(24 + i), l)),
                  static_cast<float>(want))
            << "lane " << l << " register " << i;
      }
    }
  }

  bool e5m2_b_ = false;
  GlobalMemory memory_;
  Cta cta_;
  ConstBank bank_;
  Program program_;
};

TEST_F(Qgmma, E4m3OperandsInSharedMemoryWithoutSwizzle) {
  fill(false);
  run(qgmma());
  expect_product();
}

TEST_F(Qgmma, E4m3OperandsInSharedMemoryWith128ByteSwizzle) {
  fill(true);
  run(qgmma());
  expect_product();
}

TEST_F(Qgmma, E5m2B) {
  e5m2_b_ = true;
  fill(true);
  run(qgmma());
  expect_product();
}

TEST_F(Qgmma, ZeroAccumulatorInput) {
  fill(false);
  Inst inst = qgmma();
  inst.src[0].reg = kRowZero;  // RZ: D = A B
  run(inst);
  for (uint32_t i = 0; i < kN / 2; ++i) {
    const uint32_t row = 32 + 8 * ((i % 4) / 2), col = 8 * (i / 4) + i % 2;  // lane 0
    double want = 0;
    for (uint32_t k = 0; k < 32; ++k)
      want += value(a_code(row, k), false) * value(b_code(col, k, false), false);
    EXPECT_EQ(std::bit_cast<float>(w().reg(static_cast<uint16_t>(24 + i), 0)),
              static_cast<float>(want));
  }
}

// The decoder: shape, types and the errors for forms the executor does not run.
Program decode(const std::string& mnemonic) {
  traces::sass::Function f;
  f.name = "test_kernel";
  traces::sass::Instruction in;
  in.line = 7;
  in.mnemonic = mnemonic;
  size_t dot = mnemonic.find('.');
  in.opcode = mnemonic.substr(0, dot);
  while (dot != std::string::npos) {
    const size_t next = mnemonic.find('.', dot + 1);
    in.modifiers.push_back(
        mnemonic.substr(dot + 1, next == std::string::npos ? next : next - dot - 1));
    dot = next;
  }
  traces::sass::Operand d, desc, c, gsb;
  d.kind = c.kind = traces::sass::OperandKind::kReg;
  d.reg = c.reg = 24;
  d.text = c.text = "R24";
  desc.kind = gsb.kind = traces::sass::OperandKind::kOther;
  desc.name = desc.text = "gdesc[UR12]";
  gsb.name = gsb.text = "gsb0";
  in.operands = {d, desc, c, gsb};
  f.instructions.push_back(in);
  ConstBank bank;
  bank.bytes.assign(0x400, 0);
  return decode_program(f, "test.sass", bank);
}

TEST(QgmmaDecode, ShapeAndOperandTypes) {
  const Inst e4m3 = decode("QGMMA.64x128x32.F32.E4M3.E4M3").insts.at(0);
  EXPECT_EQ(e4m3.op, Op::kHgmma);
  EXPECT_EQ(e4m3.unit, Unit::kTensor);
  EXPECT_EQ(e4m3.mma_n, 128);
  EXPECT_NE(e4m3.flags & flag::kFp8, 0U);
  EXPECT_EQ(e4m3.sub, 0);
  EXPECT_EQ(e4m3.mem.ureg, 12);
  EXPECT_EQ(decode("QGMMA.64x8x32.F32.E5M2.E4M3").insts.at(0).sub, 1);    // A E5M2
  EXPECT_EQ(decode("QGMMA.64x256x32.F32.E4M3.E5M2").insts.at(0).sub, 2);  // B E5M2
  EXPECT_EQ(decode("QGMMA.64x256x32.F32.E4M3.E5M2").insts.at(0).mma_n, 256);
  // HGMMA is unchanged: no 8-bit flag.
  EXPECT_EQ(decode("HGMMA.64x128x16.F32.BF16").insts.at(0).flags & flag::kFp8, 0U);
}

TEST(QgmmaDecode, UnsupportedFormsAreErrors) {
  for (const char* bad : {"QGMMA.64x128x16.F32.E4M3.E4M3", "QGMMA.64x128x32.F16.E4M3.E4M3",
                          "QGMMA.64x128x32.F32.E4M3", "QGMMA.64x264x32.F32.E4M3.E4M3",
                          "QGMMA.64x128x32.F32.E4M3.E4M3.E4M3", "QGMMA.64x128x32.F32.BF16.BF16",
                          "QGMMA.64x128x64.F32.E4M3.E4M3.SP"}) {
    SCOPED_TRACE(bad);
    try {
      decode(bad);
      ADD_FAILURE() << "expected an error";
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_TRUE(what.find("of QGMMA (only QGMMA.64xNx32.F32") != std::string::npos ||
                  what.find("expected QGMMA.64xNx32.F32") != std::string::npos)
          << what;
    }
  }
}

}  // namespace
}  // namespace sassim::emu
