// Semantics of the operations, grouped by unit, and the operand access they share.
// Internal to the executor: each function executes `inst` for the lanes of `mask`
// (lanes whose guard holds), or once for a uniform-datapath instruction.
#pragma once

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>

#include "traces/emu/state.h"

namespace sassim::emu {

void exec_int(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx);
void exec_int_misc(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx);
void exec_fp(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx);
void exec_fp64(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx);
void exec_mem(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx);
void exec_tensor(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx);
void exec_wgmma(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx);
void exec_async(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx);
// True when `inst` is a try-wait on an mbarrier phase that has not completed: the warp
// then waits before it (the executor runs other warps) rather than spinning.
bool waits_on_mbarrier(const Inst& inst, const Warp& w, uint32_t mask, ExecContext& ctx);

// The host's rounding mode set to an instruction's (.RZ / .RM / .RP, else nearest) for
// the lifetime of the guard.
class ScopedRounding {
 public:
  explicit ScopedRounding(uint8_t rounding) : old_(std::fegetround()) {
    switch (static_cast<Rounding>(rounding)) {
      case Rounding::kRz:
        std::fesetround(FE_TOWARDZERO);
        break;
      case Rounding::kRm:
        std::fesetround(FE_DOWNWARD);
        break;
      case Rounding::kRp:
        std::fesetround(FE_UPWARD);
        break;
      default:
        std::fesetround(FE_TONEAREST);
    }
  }
  ~ScopedRounding() { std::fesetround(old_); }
  ScopedRounding(const ScopedRounding&) = delete;
  ScopedRounding& operator=(const ScopedRounding&) = delete;

 private:
  int old_;
};

inline bool is_uniform(const Inst& inst) {
  return (inst.flags & flag::kUniform) != 0;
}

// The lanes to run a lane loop over: all of `mask`, or lane 0 once for uniform
// instructions (whose operands do not depend on the lane).
inline uint32_t lanes_of(const Inst& inst, uint32_t mask) {
  return is_uniform(inst) ? (mask != 0 ? 1U : 0U) : mask;
}

template <typename F>
inline void for_lanes(uint32_t lanes, F&& f) {
  for (uint32_t m = lanes; m != 0; m &= m - 1) f(static_cast<unsigned>(std::countr_zero(m)));
}

// Raw 32 bits of a source (no modifiers).
inline uint32_t raw(const Warp& w, const Src& s, unsigned lane) {
  switch (s.kind) {
    case SrcKind::kReg:
      return w.reg(s.reg, lane);
    case SrcKind::kUReg:
      return w.ur[s.reg];
    default:
      return static_cast<uint32_t>(s.imm);
  }
}
// High word of a 64-bit source (register pair, uniform pair or 64-bit constant).
inline uint32_t raw_hi(const Warp& w, const Src& s, unsigned lane) {
  switch (s.kind) {
    case SrcKind::kReg:
      return s.reg == kRowZero ? 0 : w.reg(static_cast<uint16_t>(s.reg + 1), lane);
    case SrcKind::kUReg:
      return s.reg == kURowZero ? 0 : w.ur[s.reg + 1U];
    default:
      return static_cast<uint32_t>(s.imm >> 32);
  }
}
inline uint64_t raw64(const Warp& w, const Src& s, unsigned lane) {
  return raw(w, s, lane) | (uint64_t{raw_hi(w, s, lane)} << 32);
}
// A 32-bit integer source with '~' and '-' applied.
inline uint32_t ival(const Warp& w, const Src& s, unsigned lane) {
  uint32_t v = raw(w, s, lane);
  if (s.mods & kModInv) v = ~v;
  if (s.mods & kModNeg) v = 0U - v;
  return v;
}
// An FP32 source with '|x|' and '-' applied.
inline float fval(const Warp& w, const Src& s, unsigned lane) {
  uint32_t v = raw(w, s, lane);
  if (s.mods & kModAbs) v &= 0x7fffffffU;
  if (s.mods & kModNeg) v ^= 0x80000000U;
  return std::bit_cast<float>(v);
}

// An FP32 source resolved once per instruction: lane l reads p[l * step], then the
// '|x|' and '-' modifiers as bit masks.
struct FloatView {
  const uint32_t* p;
  uint32_t step;
  uint32_t and_mask;
  uint32_t xor_mask;
  float operator()(unsigned lane) const {
    return std::bit_cast<float>((p[lane * step] & and_mask) ^ xor_mask);
  }
};
inline FloatView float_view(const Warp& w, const Src& s) {
  FloatView v{&s.imm32, 0, (s.mods & kModAbs) ? 0x7fffffffU : ~0U,
              (s.mods & kModNeg) ? 0x80000000U : 0U};
  if (s.kind == SrcKind::kReg) {
    v.p = w.r.data() + size_t{s.reg} * 32;
    v.step = 1;
  } else if (s.kind == SrcKind::kUReg) {
    v.p = &w.ur[s.reg];
  }
  return v;
}

inline void write(const Inst& inst, Warp& w, uint16_t row, unsigned lane, uint32_t v) {
  if (is_uniform(inst)) {
    w.ur[row] = v;
  } else {
    w.reg(row, lane) = v;
  }
}
inline void write64(const Inst& inst, Warp& w, uint16_t row, unsigned lane, uint64_t v) {
  write(inst, w, row, lane, static_cast<uint32_t>(v));
  const uint16_t hi =
      row >= (is_uniform(inst) ? kURowScratch : kRowScratch) ? row : static_cast<uint16_t>(row + 1);
  write(inst, w, hi, lane, static_cast<uint32_t>(v >> 32));
}
inline void write_pred(const Inst& inst, Warp& w, uint8_t row, unsigned lane, bool v) {
  if (is_uniform(inst)) {
    w.up[row] = v ? 1 : 0;
  } else if (v) {
    w.p[row] |= 1U << lane;
  } else {
    w.p[row] &= ~(1U << lane);
  }
}
inline bool pval(const Warp& w, const PredSrc& p, unsigned lane) {
  return pred_value(w, p, lane);
}

// FSETP / DSETP comparisons (the U forms are also true when unordered).
template <typename T>
inline bool fp_compare(Cmp cmp, T a, T b) {
  const bool unordered = std::isnan(a) || std::isnan(b);
  switch (cmp) {
    case Cmp::kF:
      return false;
    case Cmp::kLt:
      return a < b;
    case Cmp::kEq:
      return a == b;
    case Cmp::kLe:
      return a <= b;
    case Cmp::kGt:
      return a > b;
    case Cmp::kNe:
      return !unordered && a != b;
    case Cmp::kGe:
      return a >= b;
    case Cmp::kT:
      return true;
    case Cmp::kNum:
      return !unordered;
    case Cmp::kNan:
      return unordered;
    case Cmp::kLtu:
      return unordered || a < b;
    case Cmp::kEqu:
      return unordered || a == b;
    case Cmp::kLeu:
      return unordered || a <= b;
    case Cmp::kGtu:
      return unordered || a > b;
    case Cmp::kNeu:
      return unordered || a != b;
    case Cmp::kGeu:
      return unordered || a >= b;
  }
  return false;
}

// Fragment layouts of the PTX ISA's mma.m16n8k16 (one warp), which wgmma repeats per warp
// of the warpgroup and per 8 columns of N. A (16 x 16): register i (0..3) of lane l holds
// row l/4 (+8 for odd i), columns 2(l%4) and +1 (+8 for i >= 2). C and D (16 x N):
// register i holds row l/4 (+8 when i % 4 >= 2), column 8(i/4) + 2(l%4) + i % 2.
struct FragmentCell {
  unsigned row = 0, col = 0;
};
inline FragmentCell a_fragment(unsigned lane, unsigned i) {
  return {lane / 4 + ((i & 1U) != 0 ? 8 : 0), 2 * (lane % 4) + ((i & 2U) != 0 ? 8 : 0)};
}
inline FragmentCell c_fragment(unsigned lane, unsigned i) {
  return {lane / 4 + ((i & 2U) != 0 ? 8 : 0), 8 * (i / 4) + 2 * (lane % 4) + (i & 1U)};
}

// Three-input logic: bit i of `lut` is the result for (a, b, c) = bits of i (a = 4).
inline uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t r = 0;
  if (lut & 0x01) r |= ~a & ~b & ~c;
  if (lut & 0x02) r |= ~a & ~b & c;
  if (lut & 0x04) r |= ~a & b & ~c;
  if (lut & 0x08) r |= ~a & b & c;
  if (lut & 0x10) r |= a & ~b & ~c;
  if (lut & 0x20) r |= a & ~b & c;
  if (lut & 0x40) r |= a & b & ~c;
  if (lut & 0x80) r |= a & b & c;
  return r;
}

}  // namespace sassim::emu
