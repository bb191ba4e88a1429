// HGMMA.64xNx16.F32.BF16 in the executor against a direct product: operands in shared
// memory without swizzle and with the 128-byte swizzle (K-major, 8-row core-matrix
// groups), A in registers (the mma.m16n8k16 fragment), the accumulator fragment, and
// the warp's 16 rows chosen by its index in the warpgroup.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "traces/emu/exec.h"

namespace sassim::emu {
namespace {

constexpr uint32_t kN = 16;

float a_value(uint32_t row, uint32_t k) {
  return static_cast<float>(int((row * 3 + k) % 7) - 3);
}
float b_value(uint32_t col, uint32_t k) {
  return static_cast<float>(int((col + 2 * k) % 5) - 2);
}
uint16_t bf16_bits(float f) {
  return static_cast<uint16_t>(std::bit_cast<uint32_t>(f) >> 16);
}

// Byte offset of element (row, k) of a K-major operand at `start`: without swizzle,
// 8 x 16-byte core matrices (the next 8 of K 128 bytes on, the next 8 rows 256); with
// the 128-byte swizzle, 128-byte rows in groups of 8 (1024 bytes), 16-byte chunk j of
// row r at chunk j ^ (r % 8).
uint32_t offset(bool swizzled, uint32_t start, uint32_t row, uint32_t k) {
  if (!swizzled) return start + (row / 8) * 256 + (k / 8) * 128 + (row % 8) * 16 + (k % 8) * 2;
  const uint32_t a = start + (row / 8) * 1024 + (row % 8) * 128 + k * 2;
  return a ^ (((a >> 7) & 7U) << 4);
}

// Matrix descriptor: start >> 4, leading byte offset >> 4 at bit 16, stride byte offset
// >> 4 at bit 32, swizzle mode (1: 128 bytes) at bit 62.
uint64_t descriptor(bool swizzled, uint32_t start) {
  const uint64_t lo = (start >> 4) | ((swizzled ? 1U : 128U >> 4) << 16);
  const uint64_t hi = (swizzled ? 1024U >> 4 : 256U >> 4) | (swizzled ? 1U << 30 : 0U);
  return lo | (hi << 32);
}

class Wgmma : public ::testing::Test {
 protected:
  void SetUp() override {
    cta_.shared.assign(32 * 1024, 0);
    cta_.warps.resize(2);
  }
  // A (64 rows) at 0x0000 / 0x2000 (swizzled), B (N rows) at 0x1000 / 0x4000.
  void fill(bool swizzled) {
    const uint32_t a_at = swizzled ? 0x2000 : 0x0000, b_at = swizzled ? 0x4000 : 0x1000;
    for (uint32_t k = 0; k < 16; ++k) {
      for (uint32_t r = 0; r < 64; ++r) put(offset(swizzled, a_at, r, k), a_value(r, k));
      for (uint32_t c = 0; c < kN; ++c) put(offset(swizzled, b_at, c, k), b_value(c, k));
    }
    w().ur[4] = static_cast<uint32_t>(descriptor(swizzled, a_at));
    w().ur[5] = static_cast<uint32_t>(descriptor(swizzled, a_at) >> 32);
    w().ur[6] = static_cast<uint32_t>(descriptor(swizzled, b_at));
    w().ur[7] = static_cast<uint32_t>(descriptor(swizzled, b_at) >> 32);
  }
  void put(uint32_t at, float v) {
    const uint16_t bits = bf16_bits(v);
    std::memcpy(cta_.shared.data() + at, &bits, 2);
  }
  Warp& w() { return cta_.warps[1]; }  // warp 1: rows 16..31 of the 64
  Inst hgmma(bool a_in_registers) const {
    Inst inst;
    inst.op = Op::kHgmma;
    inst.unit = Unit::kTensor;
    inst.mma_n = kN;
    inst.flags = flag::kBf16;
    inst.dst[0] = 24;
    inst.mem.ureg = a_in_registers ? 6 : 4;
    inst.nsrc = a_in_registers ? 2 : 1;
    inst.src[0] =
        Src{SrcKind::kReg, 0, HalfSel::kNone, static_cast<uint16_t>(a_in_registers ? 100 : 24)};
    inst.src[1] = Src{SrcKind::kReg, 0, HalfSel::kNone, 24};
    return inst;
  }
  void run(const Inst& inst) {
    w().index = 1;
    // Accumulator in: lane + register number.
    for (unsigned l = 0; l < 32; ++l) {
      for (uint32_t i = 0; i < kN / 2; ++i)
        w().reg(static_cast<uint16_t>(24 + i), l) = std::bit_cast<uint32_t>(float(l + i));
    }
    ExecContext ctx{memory_, cta_, bank_, program_, {128, 1, 1}, {1, 1, 1}, 0, 0};
    exec_wgmma(inst, w(), ~0U, ctx);
  }
  // Accumulator out: register i of lane l holds row 16 + l/4 (+8 for i % 4 >= 2),
  // column 8 (i / 4) + 2 (l % 4) + i % 2.
  void expect_product() {
    for (unsigned l = 0; l < 32; ++l) {
      for (uint32_t i = 0; i < kN / 2; ++i) {
        const uint32_t row = 16 + l / 4 + 8 * ((i % 4) / 2);
        const uint32_t col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
        float want = float(l + i);
        for (uint32_t k = 0; k < 16; ++k) want += a_value(row, k) * b_value(col, k);
        ASSERT_EQ(std::bit_cast<float>(w().reg(static_cast<uint16_t>(24 + i), l)), want)
            << "lane " << l << " register " << i;
      }
    }
  }

  GlobalMemory memory_;
  Cta cta_;
  ConstBank bank_;
  Program program_;
};

TEST_F(Wgmma, OperandsInSharedMemoryWithoutSwizzle) {
  fill(false);
  run(hgmma(false));
  expect_product();
}

TEST_F(Wgmma, OperandsInSharedMemoryWith128ByteSwizzle) {
  fill(true);
  run(hgmma(false));
  expect_product();
}

TEST_F(Wgmma, AInRegistersAsTheMmaFragment) {
  fill(false);
  // Register i of lane l: rows l/4 (+8 for odd i), columns 2(l%4), +1 (+8 for i >= 2),
  // of this warp's rows 16..31.
  for (unsigned l = 0; l < 32; ++l) {
    for (unsigned i = 0; i < 4; ++i) {
      const uint32_t row = 16 + l / 4 + ((i & 1U) != 0 ? 8 : 0);
      const uint32_t col = 2 * (l % 4) + ((i & 2U) != 0 ? 8 : 0);
      w().reg(static_cast<uint16_t>(100 + i), l) =
          bf16_bits(a_value(row, col)) | (uint32_t{bf16_bits(a_value(row, col + 1))} << 16);
    }
  }
  std::memset(cta_.shared.data(), 0, 0x1000);  // no A in shared memory
  run(hgmma(true));
  expect_product();
}

}  // namespace
}  // namespace sassim::emu
