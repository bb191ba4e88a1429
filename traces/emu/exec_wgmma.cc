// Hopper's warpgroup matrix multiply, HGMMA.64xNx16.F32.{BF16,F16} with B in shared
// memory and A in shared memory or registers (wgmma.mma_async.m64nNk16.f32 with matrix
// descriptors), and QGMMA.64xNx32.F32.{E4M3,E5M2}.{E4M3,E5M2} with both in shared memory
// (wgmma.mma_async.m64nNk32.f32.e4m3.e4m3 and the other 8-bit pairs), executed at once: each warp
// of the warpgroup (warp index mod 4 = q) computes its 16 rows of the 64 x N accumulator. Layouts
// are those of the PTX ISA: the descriptor (start address, leading and stride byte offsets, swizzle
// mode), K-major operands in 8-row core-matrix groups, and the mma fragments of exec.h.
#include <bit>
#include <cstring>
#include <vector>

#include "traces/emu/exec.h"
#include "traces/emu/fp16.h"
#include "traces/emu/fp8.h"
#include "traces/emu/memory_access.h"
#include "traces/emu/tensor_map.h"

namespace sassim::emu {
namespace {

struct Descriptor {
  uint32_t start = 0;          // byte address in shared memory
  uint32_t leading = 0;        // leading dimension byte offset (no swizzle: next 8 of K)
  uint32_t stride = 0;         // stride dimension byte offset: next 8 rows
  uint32_t swizzle_bytes = 0;  // 0, 32, 64, 128
};

Descriptor descriptor(const Inst& inst, ExecContext& ctx, uint32_t lo, uint32_t hi) {
  Descriptor d;
  d.start = (lo & 0x3fffU) << 4;
  d.leading = ((lo >> 16) & 0x3fffU) << 4;
  d.stride = (hi & 0x3fffU) << 4;
  constexpr uint32_t kSpan[4] = {0, 128, 64, 32};
  d.swizzle_bytes = kSpan[hi >> 30];
  if (((hi >> 17) & 7U) != 0)
    ctx.fail(inst,
             "matrix descriptor with a base offset: expected operands aligned to the "
             "swizzle pattern");
  return d;
}

// Byte address of element (row, k) of a K-major operand of `bytes`-byte elements (2 or 1).
inline uint32_t element_address(const Descriptor& d, uint32_t row, uint32_t k, uint32_t bytes) {
  const uint32_t at = k * bytes;  // byte of the element along its row
  if (d.swizzle_bytes == 0) {
    // Core matrices of 8 rows x 16 bytes: rows 16 bytes apart, the next 16 bytes of K at
    // `leading`.
    return d.start + (row / 8) * d.stride + (at / 16) * d.leading + (row % 8) * 16 + at % 16;
  }
  return static_cast<uint32_t>(
      swizzle(d.start + (row / 8) * d.stride + (row % 8) * d.swizzle_bytes + at, d.swizzle_bytes));
}

}  // namespace

void exec_wgmma(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx) {
  // HGMMA Rd, gdesc[URn], Rc (A and B described in URn..URn+3) or HGMMA Rd, Ra,
  // gdesc[URn], Rc (A in Ra..Ra+3, B described in URn..URn+1); QGMMA the same.
  const bool a_in_registers = inst.nsrc == 2 && inst.src[0].kind == SrcKind::kReg;
  const bool fp8 = (inst.flags & flag::kFp8) != 0;
  if ((inst.nsrc != 1 && !a_in_registers) || inst.mem.ureg == kURowZero) {
    ctx.fail(inst, "expected HGMMA Rd, gdesc[URn], Rc or HGMMA Rd, Ra, gdesc[URn], Rc");
  }
  if (fp8 && a_in_registers)
    ctx.fail(inst,
             "QGMMA with A in registers is not supported (only both operands in shared memory)");
  if (mask == 0) return;
  const uint16_t u = inst.mem.ureg;
  const uint16_t ub = a_in_registers ? u : static_cast<uint16_t>(u + 2U);
  const Descriptor db = descriptor(inst, ctx, w.ur[ub], w.ur[ub + 1U]);
  const bool bf16 = (inst.flags & flag::kBf16) != 0;
  auto value = [&](uint16_t bits) {
    return double{bf16 ? bf16_to_float(bits) : half_to_float(bits)};
  };
  // 8-bit operand `which` (0: A, 1: B): E5M2 when its bit of Inst::sub is set, else E4M3.
  auto value8 = [&](uint8_t bits, unsigned which) {
    return double{((inst.sub >> which) & 1U) != 0 ? e5m2_to_float(bits) : e4m3_to_float(bits)};
  };
  const uint32_t n = inst.mma_n;
  const uint32_t kdim = fp8 ? 32 : 16;  // K of one instruction: 32 bytes of a row either way
  const uint32_t bytes = fp8 ? 1 : 2;
  MemoryAccess mem(ctx, inst);
  // Rows [first, first + rows) of operand `which`, kdim values each.
  auto operand = [&](const Descriptor& d, uint32_t first, uint32_t rows, unsigned which,
                     std::vector<double>& out) {
    out.assign(size_t{rows} * kdim, 0.0);
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t k = 0; k < kdim; ++k) {
        const uint8_t* p = mem.shared(element_address(d, first + r, k, bytes), bytes);
        double v;
        if (fp8) {
          v = value8(*p, which);
        } else {
          uint16_t h;
          std::memcpy(&h, p, 2);
          v = value(h);
        }
        out[size_t{r} * kdim + k] = v;
      }
    }
  };
  std::vector<double> a, b;  // [row][k]: this warp's 16 rows of A, the N rows of B
  if (a_in_registers) {
    const uint16_t ra = inst.src[0].reg;
    if (ra == kRowZero || ra + 3U >= kRowZero) ctx.fail(inst, "A registers beyond R254");
    a.assign(16 * 16, 0.0);
    for (unsigned l = 0; l < 32; ++l) {
      for (unsigned i = 0; i < 4; ++i) {
        const uint32_t v = w.reg(static_cast<uint16_t>(ra + i), l);
        const FragmentCell at = a_fragment(l, i);
        a[at.row * 16 + at.col] = value(static_cast<uint16_t>(v));
        a[at.row * 16 + at.col + 1] = value(static_cast<uint16_t>(v >> 16));
      }
    }
  } else {
    operand(descriptor(inst, ctx, w.ur[u], w.ur[u + 1U]), 16 * (w.index % 4), 16, 0, a);
  }
  operand(db, 0, n, 1, b);
  const uint16_t dst = inst.dst[0];
  const Src& c = inst.src[a_in_registers ? 1 : 0];
  const bool accumulate = c.kind == SrcKind::kReg && c.reg != kRowZero;
  if (dst >= kRowScratch || uint32_t{dst} + n / 2 > kRowZero)
    ctx.fail(inst, fmt::format("accumulator registers R{}..R{} beyond R254", dst, dst + n / 2 - 1));
  // The warp's 16 x N products, summed over K in order for each element (products of
  // 16-bit and 8-bit values are exact in double; each sum is rounded once, below). B is
  // laid out K-major so that the inner loop runs over N. Real FP8 tensor cores add with
  // fewer bits (the DeepSeek-V3 technical report, arXiv:2412.19437, "Increasing
  // Accumulation Precision": about 14 bits kept on H800): sums that are not exact in
  // FP32 can differ from the hardware's; the suite's inputs keep every sum exact.
  std::vector<double> bt(size_t{kdim} * n), sums(size_t{16} * n, 0.0);
  for (uint32_t col = 0; col < n; ++col) {
    for (uint32_t k = 0; k < kdim; ++k) bt[size_t{k} * n + col] = b[size_t{col} * kdim + k];
  }
  for (uint32_t row = 0; row < 16; ++row) {
    double* out = sums.data() + size_t{row} * n;
    for (uint32_t k = 0; k < kdim; ++k) {
      const double x = a[size_t{row} * kdim + k];
      const double* y = bt.data() + size_t{k} * n;
      for (uint32_t col = 0; col < n; ++col) out[col] += x * y[col];
    }
  }
  for_lanes(mask, [&](unsigned l) {
    for (uint32_t i = 0; i < n / 2; ++i) {
      const FragmentCell at = c_fragment(l, i);  // of this warp's 16 rows
      const float acc =
          accumulate ? std::bit_cast<float>(w.reg(static_cast<uint16_t>(c.reg + i), l)) : 0.0F;
      w.reg(static_cast<uint16_t>(dst + i), l) =
          std::bit_cast<uint32_t>(static_cast<float>(sums[at.row * n + at.col] + acc));
    }
  });
}

}  // namespace sassim::emu
