// Hopper's warpgroup matrix multiply, HGMMA.64xNx16.F32.{BF16,F16} with B in shared
// memory and A in shared memory or registers (wgmma.mma_async.m64nNk16.f32 with matrix
// descriptors), executed at once: each warp of the warpgroup (warp index mod 4 = q)
// computes its 16 rows of the 64 x N accumulator. Layouts are those of the PTX ISA: the descriptor
// (start address, leading and stride byte offsets, swizzle mode), K-major operands in 8-row
// core-matrix groups, and the accumulator fragment (lane l holds rows 16q + l/4 and +8, columns 8j
// + 2(l%4) and +1 in registers 4j..4j+3).
#include <bit>
#include <cstring>
#include <vector>

#include "traces/emu/exec.h"
#include "traces/emu/fp16.h"
#include "traces/emu/memory_access.h"

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

// Byte address of element (row, k) of a K-major operand of 16-bit elements.
uint32_t element_address(const Descriptor& d, uint32_t row, uint32_t k) {
  if (d.swizzle_bytes == 0) {
    // Core matrices of 8 rows x 16 bytes: rows 16 bytes apart, the next 8 of K at `leading`.
    return d.start + (row / 8) * d.stride + (k / 8) * d.leading + (row % 8) * 16 + (k % 8) * 2;
  }
  const uint32_t a = d.start + (row / 8) * d.stride + (row % 8) * d.swizzle_bytes + k * 2;
  const uint32_t bits = d.swizzle_bytes == 128 ? 7 : d.swizzle_bytes == 64 ? 3 : 1;
  return a ^ (((a >> 7) & bits) << 4);
}

}  // namespace

void exec_wgmma(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx) {
  // HGMMA Rd, gdesc[URn], Rc (A and B described in URn..URn+3) or HGMMA Rd, Ra,
  // gdesc[URn], Rc (A in Ra..Ra+3, B described in URn..URn+1).
  const bool a_in_registers = inst.nsrc == 2 && inst.src[0].kind == SrcKind::kReg;
  if ((inst.nsrc != 1 && !a_in_registers) || inst.mem.ureg == kURowZero) {
    ctx.fail(inst, "expected HGMMA Rd, gdesc[URn], Rc or HGMMA Rd, Ra, gdesc[URn], Rc");
  }
  if (mask == 0) return;
  const uint16_t u = inst.mem.ureg;
  const Descriptor da =
      a_in_registers ? Descriptor{} : descriptor(inst, ctx, w.ur[u], w.ur[u + 1U]);
  const uint16_t ub = a_in_registers ? u : static_cast<uint16_t>(u + 2U);
  const Descriptor db = descriptor(inst, ctx, w.ur[ub], w.ur[ub + 1U]);
  const bool bf16 = (inst.flags & flag::kBf16) != 0;
  const uint32_t n = inst.mma_n;
  MemoryAccess mem(ctx, inst);
  // Rows [first, first + rows) of an operand, K values each.
  auto operand = [&](const Descriptor& d, uint32_t first, uint32_t rows, std::vector<double>& out) {
    out.assign(size_t{rows} * 16, 0.0);
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t k = 0; k < 16; ++k) {
        uint16_t h;
        std::memcpy(&h, mem.shared(element_address(d, first + r, k), 2), 2);
        out[size_t{r} * 16 + k] = bf16 ? bf16_to_float(h) : half_to_float(h);
      }
    }
  };
  const uint32_t q = w.index % 4;
  std::vector<double> a, b;
  if (a_in_registers) {
    // This warp's 16 x 16 of A as mma.m16n8k16 holds it: register i of lane l has rows
    // l/4 (+8 for odd i) and columns 2(l%4), +1 (+8 for i >= 2).
    const uint16_t ra = inst.src[0].reg;
    if (ra == kRowZero || ra + 3U >= kRowZero) ctx.fail(inst, "A registers beyond R254");
    a.assign(16 * 16, 0.0);
    for (unsigned l = 0; l < 32; ++l) {
      for (unsigned i = 0; i < 4; ++i) {
        const uint32_t v = w.reg(static_cast<uint16_t>(ra + i), l);
        const unsigned row = l / 4 + ((i & 1U) != 0 ? 8 : 0);
        const unsigned col = 2 * (l % 4) + ((i & 2U) != 0 ? 8 : 0);
        for (unsigned h = 0; h < 2; ++h) {
          const auto bits = static_cast<uint16_t>(v >> (16 * h));
          a[row * 16 + col + h] = bf16 ? bf16_to_float(bits) : half_to_float(bits);
        }
      }
    }
  } else {
    operand(da, 16 * q, 16, a);  // this warp's rows of A
  }
  operand(db, 0, n, b);
  const uint16_t dst = inst.dst[0];
  const Src& c = inst.src[a_in_registers ? 1 : 0];
  if (dst >= kRowScratch || uint32_t{dst} + n / 2 > kRowZero)
    ctx.fail(inst, fmt::format("accumulator registers R{}..R{} beyond R254", dst, dst + n / 2 - 1));
  // The warp's 16 x N products, summed over K in order for each element (products of
  // 16-bit values are exact in double; each sum is rounded once, below). B is laid out
  // K-major so that the inner loop runs over N.
  std::vector<double> bt(size_t{16} * n), sums(size_t{16} * n, 0.0);
  for (uint32_t col = 0; col < n; ++col) {
    for (uint32_t k = 0; k < 16; ++k) bt[size_t{k} * n + col] = b[size_t{col} * 16 + k];
  }
  for (uint32_t row = 0; row < 16; ++row) {
    double* out = sums.data() + size_t{row} * n;
    for (uint32_t k = 0; k < 16; ++k) {
      const double x = a[size_t{row} * 16 + k];
      const double* y = bt.data() + size_t{k} * n;
      for (uint32_t col = 0; col < n; ++col) out[col] += x * y[col];
    }
  }
  for_lanes(mask, [&](unsigned l) {
    for (uint32_t i = 0; i < n / 2; ++i) {
      const uint32_t row = l / 4 + 8 * ((i % 4) / 2);  // of this warp's 16
      const uint32_t col = 8 * (i / 4) + 2 * (l % 4) + (i % 2);
      const double sum = sums[size_t{row} * n + col];
      const float acc = c.kind == SrcKind::kReg && c.reg != kRowZero
                            ? std::bit_cast<float>(w.reg(static_cast<uint16_t>(c.reg + i), l))
                            : 0.0F;
      w.reg(static_cast<uint16_t>(dst + i), l) =
          std::bit_cast<uint32_t>(static_cast<float>(sum + acc));
    }
  });
}

}  // namespace sassim::emu
