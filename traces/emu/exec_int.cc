// Integer arithmetic, logic, shifts and integer comparisons.
#include <algorithm>

#include "traces/emu/exec.h"
#include "traces/emu/special_regs.h"

namespace sassim::emu {
namespace {

uint32_t carry_in(const Inst& inst, const Warp& w, unsigned lane) {
  return pval(w, inst.psrc[0], lane) ? 1U : 0U;
}

// Operands of IADD3 as 64-bit addends: '-x' contributes ~x + 1, '~x' contributes ~x.
uint64_t addend(const Warp& w, const Src& s, unsigned lane) {
  uint32_t v = raw(w, s, lane);
  if (s.mods & kModInv) return uint64_t{~v};
  if (s.mods & kModNeg) return uint64_t{~v} + 1;
  return v;
}

void iadd3(const Inst& inst, Warp& w, unsigned lane) {
  uint64_t sum =
      addend(w, inst.src[0], lane) + addend(w, inst.src[1], lane) + addend(w, inst.src[2], lane);
  if (inst.flags & flag::kX) {
    // Carry-in predicates: the first two predicate sources (the second may be !PT).
    sum += pval(w, inst.psrc[0], lane) ? 1U : 0U;
    sum += pval(w, inst.psrc[1], lane) ? 1U : 0U;
  }
  write(inst, w, inst.dst[0], lane, static_cast<uint32_t>(sum));
  const uint64_t carry = sum >> 32;
  write_pred(inst, w, inst.pdst[0], lane, carry >= 1);
  write_pred(inst, w, inst.pdst[1], lane, carry >= 2);
}

void imad(const Inst& inst, Warp& w, unsigned lane) {
  const uint32_t a = ival(w, inst.src[0], lane);
  const uint32_t b = ival(w, inst.src[1], lane);
  const bool u = (inst.flags & flag::kU32) != 0;
  switch (inst.op) {
    case Op::kImadWide: {
      const uint64_t prod = u ? uint64_t{a} * b
                              : static_cast<uint64_t>(int64_t{static_cast<int32_t>(a)} *
                                                      int64_t{static_cast<int32_t>(b)});
      uint64_t c = raw64(w, inst.src[2], lane);
      if (inst.src[2].mods & kModNeg) c = 0 - c;
      if (inst.src[2].kind == SrcKind::kImm && (inst.src[2].imm >> 32) == 0 && !u &&
          static_cast<int32_t>(inst.src[2].imm) < 0) {
        c |= 0xffffffff00000000ULL;  // a 32-bit immediate addend is sign-extended
      }
      uint64_t r = prod + c;
      if (inst.flags & flag::kX) r += carry_in(inst, w, lane);
      write64(inst, w, inst.dst[0], lane, r);
      write_pred(inst, w, inst.pdst[0], lane, r < prod);
      return;
    }
    case Op::kImadHi: {
      const uint64_t prod = u ? uint64_t{a} * b
                              : static_cast<uint64_t>(int64_t{static_cast<int32_t>(a)} *
                                                      int64_t{static_cast<int32_t>(b)});
      // A register addend is the 64-bit pair (Rc+1:Rc), added before the high word is
      // taken: nvcc's unsigned division refines its reciprocal estimate x with
      // `MOV Rc, RZ; IMAD.HI.U32 Rx, Rx, Re, Rc` (x in Rc+1 = Rx), i.e. x + umulhi(x, e),
      // and yields wrong quotients from 3 upwards under a 32-bit addend.
      const Src& c = inst.src[2];
      const bool pair = c.kind == SrcKind::kReg || c.kind == SrcKind::kUReg;
      uint64_t r = pair ? ((prod + raw64(w, c, lane)) >> 32) : (prod >> 32) + ival(w, c, lane);
      if (inst.flags & flag::kX) r += carry_in(inst, w, lane);
      write(inst, w, inst.dst[0], lane, static_cast<uint32_t>(r));
      write_pred(inst, w, inst.pdst[0], lane, (r >> 32) != 0);
      return;
    }
    default: {
      uint64_t r = uint64_t{a * b} + ival(w, inst.src[2], lane);
      if (inst.flags & flag::kX) r += carry_in(inst, w, lane);
      write(inst, w, inst.dst[0], lane, static_cast<uint32_t>(r));
      write_pred(inst, w, inst.pdst[0], lane, (r >> 32) != 0);
      return;
    }
  }
}

// LEA: (a << s) + b; LEA.HI: high word of ((c:a) << s) + b (c = sign of a for .SX32).
void lea(const Inst& inst, Warp& w, unsigned lane) {
  const uint32_t a = ival(w, inst.src[0], lane);
  const uint32_t b = ival(w, inst.src[1], lane);
  uint64_t r;
  if (inst.op == Op::kLeaHi || (inst.flags & flag::kHi)) {
    const bool sx = (inst.flags & flag::kSx32) != 0;
    const uint32_t c = sx ? (static_cast<int32_t>(a) < 0 ? ~0U : 0U) : ival(w, inst.src[2], lane);
    const uint32_t s = raw(w, inst.src[sx ? 2 : 3], lane) & 63U;
    const uint64_t wide = (uint64_t{c} << 32) | a;
    r = uint64_t{static_cast<uint32_t>((wide << s) >> 32)} + b;
  } else {
    const uint32_t s = raw(w, inst.src[2], lane) & 31U;
    r = uint64_t{a << s} + b;
  }
  if (inst.flags & flag::kX) r += pval(w, inst.psrc[0], lane) ? 1U : 0U;
  write(inst, w, inst.dst[0], lane, static_cast<uint32_t>(r));
  write_pred(inst, w, inst.pdst[0], lane, (r >> 32) != 0);
}

// SHF: a funnel shift of the 64-bit value (hi:lo); .HI returns the high word.
uint32_t shf(uint32_t flags, uint32_t lo, uint32_t shift, uint32_t hi) {
  const bool is64 = (flags & flag::k64) != 0;
  const bool sign = (flags & flag::kSigned) != 0;
  const uint32_t limit = is64 ? 64 : 32;
  uint32_t s = (flags & flag::kWrap) ? shift & (limit - 1) : std::min(shift, limit);
  const uint64_t v = (uint64_t{hi} << 32) | lo;
  uint64_t r;
  if (flags & flag::kLeft) {
    r = s >= 64 ? 0 : v << s;
  } else if (sign) {
    r = static_cast<uint64_t>(static_cast<int64_t>(v) >> std::min(s, 63U));
  } else {
    r = s >= 64 ? 0 : v >> s;
  }
  if (!is64 && !(flags & flag::kLeft) && (flags & flag::kHi) && sign) {
    // .R.S32.HI: the arithmetic shift of the high word.
    return static_cast<uint32_t>(static_cast<int32_t>(hi) >> std::min(s, 31U));
  }
  return (flags & flag::kHi) ? static_cast<uint32_t>(r >> 32) : static_cast<uint32_t>(r);
}

bool compare_int(Cmp cmp, uint32_t a, uint32_t b, bool is_unsigned) {
  const auto sa = static_cast<int32_t>(a);
  const auto sb = static_cast<int32_t>(b);
  switch (cmp) {
    case Cmp::kLt:
      return is_unsigned ? a < b : sa < sb;
    case Cmp::kEq:
      return a == b;
    case Cmp::kLe:
      return is_unsigned ? a <= b : sa <= sb;
    case Cmp::kGt:
      return is_unsigned ? a > b : sa > sb;
    case Cmp::kNe:
      return a != b;
    case Cmp::kGe:
      return is_unsigned ? a >= b : sa >= sb;
    case Cmp::kT:
      return true;
    default:
      return false;
  }
}

bool combine(BoolOp op, bool a, bool b) {
  switch (op) {
    case BoolOp::kAnd:
      return a && b;
    case BoolOp::kOr:
      return a || b;
    default:
      return a != b;
  }
}

// ISETP P, Q, a, b, c [, low]: P = (a cmp b) op c, Q = !(a cmp b) op c. With .EX the
// comparison is the high word of a 64-bit one whose low-word result is `low`.
void isetp(const Inst& inst, Warp& w, unsigned lane) {
  const uint32_t a = ival(w, inst.src[0], lane);
  const uint32_t b = ival(w, inst.src[1], lane);
  const auto cmp = static_cast<Cmp>(inst.sub);
  bool r;
  if (inst.flags & flag::kX) {
    const bool low = pval(w, inst.psrc[1], lane);
    const bool u = (inst.flags & flag::kU32) != 0;
    switch (cmp) {
      case Cmp::kEq:
        r = a == b && low;
        break;
      case Cmp::kNe:
        r = a != b || low;
        break;
      case Cmp::kLt:
      case Cmp::kLe:
        r = compare_int(Cmp::kLt, a, b, u) || (a == b && low);
        break;
      case Cmp::kGt:
      case Cmp::kGe:
        r = compare_int(Cmp::kGt, a, b, u) || (a == b && low);
        break;
      default:
        r = compare_int(cmp, a, b, u);
    }
  } else {
    r = compare_int(cmp, a, b, (inst.flags & flag::kU32) != 0);
  }
  const bool c = pval(w, inst.psrc[0], lane);
  const auto op = static_cast<BoolOp>(inst.sub2);
  write_pred(inst, w, inst.pdst[0], lane, combine(op, r, c));
  write_pred(inst, w, inst.pdst[1], lane, combine(op, !r, c));
}

uint32_t special(const ExecContext& ctx, const Warp& w, SpecialReg sr, unsigned lane) {
  const uint32_t tid = w.index * 32 + lane;
  switch (sr) {
    case SpecialReg::kTidX:
      return tid % ctx.block.x;
    case SpecialReg::kTidY:
      return (tid / ctx.block.x) % ctx.block.y;
    case SpecialReg::kTidZ:
      return tid / (ctx.block.x * ctx.block.y);
    case SpecialReg::kCtaidX:
      return ctx.cta.id.x;
    case SpecialReg::kCtaidY:
      return ctx.cta.id.y;
    case SpecialReg::kCtaidZ:
      return ctx.cta.id.z;
    case SpecialReg::kLaneId:
      return lane;
    case SpecialReg::kClockLo:
    case SpecialReg::kGlobalTimerLo:
      return static_cast<uint32_t>(ctx.clock);
    case SpecialReg::kClockHi:
    case SpecialReg::kGlobalTimerHi:
      return static_cast<uint32_t>(ctx.clock >> 32);
    case SpecialReg::kLtMask:
      return (1U << lane) - 1;
    case SpecialReg::kLeMask:
      return (2U << lane) - 1;
    case SpecialReg::kGtMask:
      return ~((2U << lane) - 1);
    case SpecialReg::kGeMask:
      return ~((1U << lane) - 1);
    case SpecialReg::kEqMask:
      return 1U << lane;
    case SpecialReg::kWarpId:
      return w.index;
    case SpecialReg::kCgaCtaId:
      return ctx.cta.rank;  // the CTA's rank in its cluster (%cluster_ctarank)
    default:
      return 0;  // SRZ, SM ids
  }
}

}  // namespace

void exec_int(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx) {
  const uint32_t lanes = lanes_of(inst, mask);
  switch (inst.op) {
    case Op::kR2ur:
      // The compiler emits R2UR for values the warp holds alike; the first active lane's.
      if (mask != 0) {
        write(inst, w, inst.dst[0], 0,
              raw(w, inst.src[0], static_cast<unsigned>(std::countr_zero(mask))));
      }
      return;
    case Op::kMov:
      if (inst.flags & flag::k64) {
        for_lanes(lanes,
                  [&](unsigned l) { write64(inst, w, inst.dst[0], l, raw64(w, inst.src[0], l)); });
      } else {
        for_lanes(lanes,
                  [&](unsigned l) { write(inst, w, inst.dst[0], l, raw(w, inst.src[0], l)); });
      }
      return;
    case Op::kS2r:
      for_lanes(lanes, [&](unsigned l) {
        write(inst, w, inst.dst[0], l, special(ctx, w, static_cast<SpecialReg>(inst.sub), l));
      });
      return;
    case Op::kCs2r:
      for_lanes(lanes, [&](unsigned l) {
        const auto sr = static_cast<SpecialReg>(inst.sub);
        const uint64_t v = sr == SpecialReg::kZero ? 0 : ctx.clock;
        if (inst.width == 4) {
          write(inst, w, inst.dst[0], l, static_cast<uint32_t>(v));
        } else {
          write64(inst, w, inst.dst[0], l, v);
        }
      });
      return;
    case Op::kImad:
    case Op::kImadWide:
    case Op::kImadHi:
      for_lanes(lanes, [&](unsigned l) { imad(inst, w, l); });
      return;
    case Op::kIadd3:
      for_lanes(lanes, [&](unsigned l) { iadd3(inst, w, l); });
      return;
    case Op::kLea:
    case Op::kLeaHi:
      for_lanes(lanes, [&](unsigned l) { lea(inst, w, l); });
      return;
    case Op::kLop3:
      for_lanes(lanes, [&](unsigned l) {
        const uint32_t r = lop3(ival(w, inst.src[0], l), ival(w, inst.src[1], l),
                                ival(w, inst.src[2], l), raw(w, inst.src[3], l));
        write(inst, w, inst.dst[0], l, r);
        write_pred(inst, w, inst.pdst[0], l, r != 0 || pval(w, inst.psrc[0], l));
      });
      return;
    case Op::kShf:
      for_lanes(lanes, [&](unsigned l) {
        write(inst, w, inst.dst[0], l,
              shf(inst.flags, ival(w, inst.src[0], l), raw(w, inst.src[1], l),
                  ival(w, inst.src[2], l)));
      });
      return;
    case Op::kIsetp:
      for_lanes(lanes, [&](unsigned l) { isetp(inst, w, l); });
      return;
    case Op::kSel:
      for_lanes(lanes, [&](unsigned l) {
        write(inst, w, inst.dst[0], l,
              pval(w, inst.psrc[0], l) ? ival(w, inst.src[0], l) : ival(w, inst.src[1], l));
      });
      return;
    case Op::kPlop3:
      for_lanes(lanes, [&](unsigned l) {
        const uint32_t a = pval(w, inst.psrc[0], l) ? 1 : 0;
        const uint32_t b = pval(w, inst.psrc[1], l) ? 1 : 0;
        const uint32_t c = pval(w, inst.psrc[2], l) ? 1 : 0;
        write_pred(inst, w, inst.pdst[0], l, (lop3(a, b, c, raw(w, inst.src[0], l)) & 1U) != 0);
        write_pred(inst, w, inst.pdst[1], l, (lop3(a, b, c, raw(w, inst.src[1], l)) & 1U) != 0);
      });
      return;
    default:
      exec_int_misc(inst, w, mask, ctx);
  }
}

}  // namespace sassim::emu
