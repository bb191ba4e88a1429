// Warp-wide matrix operations: HMMA.16816.F32 (mma.sync.m16n8k16 with FP16 or BF16
// inputs and FP32 accumulators) and LDSM (ldmatrix .x1/.x2/.x4, optionally transposed).
// Fragment layouts are those of the PTX ISA for mma.m16n8k16 and ldmatrix.
#include <array>

#include "traces/emu/exec.h"
#include "traces/emu/fp16.h"
#include "traces/emu/memory_access.h"

namespace sassim::emu {
namespace {

uint32_t reg_or_zero(const Warp& w, const Src& s, unsigned k, unsigned lane) {
  if (s.kind != SrcKind::kReg || s.reg == kRowZero) return 0;
  return w.reg(static_cast<uint16_t>(s.reg + k), lane);
}

// Every FP16 value as FP32, computed once (immutable after initialisation).
const std::array<float, 65536>& half_table() {
  static const std::array<float, 65536> table = [] {
    std::array<float, 65536> t{};
    for (uint32_t h = 0; h < t.size(); ++h) t[h] = half_to_float(static_cast<uint16_t>(h));
    return t;
  }();
  return table;
}

void hmma(const Inst& inst, Warp& w, uint32_t mask) {
  const bool bf16 = (inst.flags & flag::kBf16) != 0;
  const std::array<float, 65536>& halves = half_table();
  auto to_double = [&](uint32_t bits) {
    const auto h = static_cast<uint16_t>(bits);
    return double{bf16 ? bf16_to_float(h) : halves[h]};
  };
  std::array<std::array<double, 16>, 16> a{};  // [m][k]
  std::array<std::array<double, 16>, 8> bt{};  // [n][k]
  std::array<std::array<float, 8>, 16> c{};    // [m][n]
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned g = l >> 2, t = l & 3;
    for (unsigned i = 0; i < 4; ++i) {
      const uint32_t v = reg_or_zero(w, inst.src[0], i, l);
      const FragmentCell at = a_fragment(l, i);
      a[at.row][at.col] = to_double(v);
      a[at.row][at.col + 1] = to_double(v >> 16);
    }
    for (unsigned i = 0; i < 2; ++i) {
      const uint32_t v = reg_or_zero(w, inst.src[1], i, l);
      const unsigned k = 2 * t + (i ? 8 : 0);
      bt[g][k] = to_double(v);
      bt[g][k + 1] = to_double(v >> 16);
    }
    for (unsigned i = 0; i < 4; ++i) {
      const FragmentCell at = c_fragment(l, i);
      c[at.row][at.col] = std::bit_cast<float>(reg_or_zero(w, inst.src[2], i, l));
    }
  }
  for_lanes(mask, [&](unsigned l) {
    for (unsigned i = 0; i < 4; ++i) {
      const auto [m, n] = c_fragment(l, i);
      // Products of 16-bit values are exact in double; the sum is rounded once.
      double sum = 0;
      for (unsigned k = 0; k < 16; ++k) sum += a[m][k] * bt[n][k];
      const uint16_t row =
          inst.dst[0] >= kRowScratch ? inst.dst[0] : static_cast<uint16_t>(inst.dst[0] + i);
      w.reg(row, l) = std::bit_cast<uint32_t>(static_cast<float>(sum + double{c[m][n]}));
    }
  });
}

void ldsm(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx) {
  MemoryAccess mem(ctx, inst);
  const unsigned matrices = inst.sub2;
  std::array<uint32_t, 32> rows{};
  for (unsigned l = 0; l < 32; ++l) rows[l] = static_cast<uint32_t>(address(w, inst.mem, l));
  for_lanes(mask, [&](unsigned l) { w.addrs.push_back(rows[l]); });
  for (unsigned l = 0; l < 8 * matrices; ++l) mem.shared(rows[l], 16);  // bounds and alignment
  auto half_at = [&](unsigned matrix, unsigned r, unsigned c) {
    uint16_t h;
    std::memcpy(&h, ctx.cta.shared.data() + rows[matrix * 8 + r] + 2 * c, 2);
    return uint32_t{h};
  };
  for_lanes(mask, [&](unsigned l) {
    for (unsigned i = 0; i < matrices; ++i) {
      uint32_t v;
      if (inst.flags & flag::kTrans) {
        v = half_at(i, 2 * (l % 4), l / 4) | (half_at(i, 2 * (l % 4) + 1, l / 4) << 16);
      } else {
        v = half_at(i, l / 4, 2 * (l % 4)) | (half_at(i, l / 4, 2 * (l % 4) + 1) << 16);
      }
      const uint16_t row =
          inst.dst[0] >= kRowScratch ? inst.dst[0] : static_cast<uint16_t>(inst.dst[0] + i);
      w.reg(row, l) = v;
    }
  });
}

}  // namespace

void exec_tensor(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx) {
  if (inst.op == Op::kHmma) {
    hmma(inst, w, mask);
  } else {
    ldsm(inst, w, mask, ctx);
  }
}

}  // namespace sassim::emu
