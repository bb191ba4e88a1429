// FP32, packed FP16 and conversion operations, as IEEE arithmetic on the host (MUFU
// through the host's libm: hardware approximations differ in the last bits).
#include <cmath>
#include <limits>
#include <numbers>

#include "traces/emu/exec.h"
#include "traces/emu/fp16.h"

namespace sassim::emu {
namespace {

float ftz(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0F, x) : x;
}

float sat(float x) {
  if (std::isnan(x)) return 0.0F;
  return x < 0.0F ? 0.0F : (x > 1.0F ? 1.0F : x);
}

// a * b + c (FFMA), a + b (FADD: b = 1, c = b), a * b (FMUL: c = -0) in one rounding.
float fma_op(const Inst& inst, float a, float b, float c) {
  const bool f = (inst.flags & flag::kFtz) != 0;
  if (f) {
    a = ftz(a);
    b = ftz(b);
    c = ftz(c);
  }
  float r;
  if (inst.sub2 == 0) {
    r = inst.op == Op::kFadd ? a + c : inst.op == Op::kFmul ? a * b : std::fma(a, b, c);
  } else {
    const ScopedRounding rounding(inst.sub2);
    volatile float va = a, vb = b, vc = c;
    r = inst.op == Op::kFadd ? va + vc : inst.op == Op::kFmul ? va * vb : std::fma(va, vb, vc);
  }
  if (f) r = ftz(r);
  if (inst.flags & flag::kSat) r = sat(r);
  return r;
}

float mufu(uint8_t fn, float x) {
  switch (fn) {
    case 0:
      return 1.0F / x;  // RCP
    case 1:
      return std::exp2(x);  // EX2
    case 2:
      return std::log2(x);  // LG2
    case 3:
      return 1.0F / std::sqrt(x);  // RSQ
    case 4:
      return std::sqrt(x);  // SQRT
    case 5:
      return std::sin(x * 2.0F * std::numbers::pi_v<float>);  // SIN (of turns)
    case 6:
      return std::cos(x * 2.0F * std::numbers::pi_v<float>);  // COS
    case 7:
      return std::tanh(x);  // TANH
    default:
      return std::numeric_limits<float>::quiet_NaN();
  }
}

// The two 16-bit halves of a packed source, as floats (low, high).
std::pair<float, float> halves(const Warp& w, const Src& s, unsigned lane) {
  const uint32_t v = raw(w, s, lane);
  float lo, hi;
  if (s.half == HalfSel::kF32) {
    lo = hi = std::bit_cast<float>(v);
  } else {
    lo = half_to_float(static_cast<uint16_t>(v));
    hi = half_to_float(static_cast<uint16_t>(v >> 16));
    if (s.half == HalfSel::kH0H0) hi = lo;
    if (s.half == HalfSel::kH1H1) lo = hi;
  }
  if (s.mods & kModAbs) {
    lo = std::fabs(lo);
    hi = std::fabs(hi);
  }
  if (s.mods & kModNeg) {
    lo = -lo;
    hi = -hi;
  }
  return {lo, hi};
}

void half2(const Inst& inst, Warp& w, unsigned lane) {
  const auto [a0, a1] = halves(w, inst.src[0], lane);
  std::pair<float, float> b{1.0F, 1.0F}, c{-0.0F, -0.0F};
  if (inst.op == Op::kHadd2) {
    c = halves(w, inst.src[1], lane);
  } else {
    b = halves(w, inst.src[1], lane);
    if (inst.op == Op::kHfma2) c = halves(w, inst.src[2], lane);
  }
  float r0 = std::fma(a0, b.first, c.first);
  float r1 = std::fma(a1, b.second, c.second);
  if (inst.flags & flag::kSat) {
    r0 = sat(r0);
    r1 = sat(r1);
  }
  write(inst, w, inst.dst[0], lane, (uint32_t{float_to_half(r1)} << 16) | float_to_half(r0));
}

float round_to_integer(float x, uint8_t r) {
  switch (static_cast<Rounding>(r)) {
    case Rounding::kRz:
      return std::trunc(x);
    case Rounding::kRm:
      return std::floor(x);
    case Rounding::kRp:
      return std::ceil(x);
    default:
      return std::nearbyint(x);
  }
}

uint32_t f2i(const Inst& inst, float x) {
  const float r = round_to_integer(x, inst.sub2);
  if (inst.flags & flag::kU32) {
    if (std::isnan(r) || r <= 0.0F) return 0;
    return r >= 4294967296.0F ? ~0U : static_cast<uint32_t>(r);
  }
  if (std::isnan(r)) return 0x80000000U;
  if (r >= 2147483648.0F) return 0x7fffffffU;
  if (r < -2147483648.0F) return 0x80000000U;
  return static_cast<uint32_t>(static_cast<int32_t>(r));
}

// F2F: the destination format in bits 0-1 of sub, the source in bits 2-3.
uint32_t f2f(const Inst& inst, uint32_t v) {
  const unsigned to = inst.sub & 3U, from = (inst.sub >> 2) & 3U;
  float x = from == 2   ? half_to_float(static_cast<uint16_t>(v))
            : from == 3 ? bf16_to_float(static_cast<uint16_t>(v))
                        : std::bit_cast<float>(v);
  if (inst.flags & flag::kFtz) x = ftz(x);
  if (to == 2) return float_to_half(x);
  if (to == 3) return float_to_bf16(x);
  return std::bit_cast<uint32_t>(x);
}

}  // namespace

void exec_fp(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx) {
  const uint32_t lanes = lanes_of(inst, mask);
  auto out = [&](unsigned l, float v) {
    write(inst, w, inst.dst[0], l, std::bit_cast<uint32_t>(v));
  };
  const bool plain =
      (inst.flags & (flag::kFtz | flag::kSat)) == 0 && inst.sub2 == 0 && !is_uniform(inst);
  if (plain && (inst.op == Op::kFfma || inst.op == Op::kFadd || inst.op == Op::kFmul)) {
    const FloatView a = float_view(w, inst.src[0]), b = float_view(w, inst.src[1]);
    uint32_t* d = &w.reg(inst.dst[0], 0);
    if (inst.op == Op::kFfma) {
      const FloatView c = float_view(w, inst.src[2]);
      for_lanes(mask,
                [&](unsigned l) { d[l] = std::bit_cast<uint32_t>(std::fma(a(l), b(l), c(l))); });
    } else if (inst.op == Op::kFadd) {
      for_lanes(mask, [&](unsigned l) { d[l] = std::bit_cast<uint32_t>(a(l) + b(l)); });
    } else {
      for_lanes(mask, [&](unsigned l) { d[l] = std::bit_cast<uint32_t>(a(l) * b(l)); });
    }
    return;
  }
  switch (inst.op) {
    case Op::kFfma:
      for_lanes(lanes, [&](unsigned l) {
        out(l, fma_op(inst, fval(w, inst.src[0], l), fval(w, inst.src[1], l),
                      fval(w, inst.src[2], l)));
      });
      return;
    case Op::kFadd:
      for_lanes(lanes, [&](unsigned l) {
        out(l, fma_op(inst, fval(w, inst.src[0], l), 1.0F, fval(w, inst.src[1], l)));
      });
      return;
    case Op::kFmul:
      for_lanes(lanes, [&](unsigned l) {
        out(l, fma_op(inst, fval(w, inst.src[0], l), fval(w, inst.src[1], l), -0.0F));
      });
      return;
    case Op::kFmnmx:
      for_lanes(lanes, [&](unsigned l) {
        const float a = fval(w, inst.src[0], l), b = fval(w, inst.src[1], l);
        out(l, pval(w, inst.psrc[0], l) ? std::fmin(a, b) : std::fmax(a, b));
      });
      return;
    case Op::kFsetp:
      for_lanes(lanes, [&](unsigned l) {
        float a = fval(w, inst.src[0], l), b = fval(w, inst.src[1], l);
        if (inst.flags & flag::kFtz) {
          a = ftz(a);
          b = ftz(b);
        }
        const bool r = fp_compare(static_cast<Cmp>(inst.sub), a, b);
        const bool c = pval(w, inst.psrc[0], l);
        const auto op = static_cast<BoolOp>(inst.sub2);
        auto comb = [&](bool x) {
          return op == BoolOp::kAnd ? x && c : op == BoolOp::kOr ? x || c : x != c;
        };
        write_pred(inst, w, inst.pdst[0], l, comb(r));
        write_pred(inst, w, inst.pdst[1], l, comb(!r));
      });
      return;
    case Op::kFsel:
      for_lanes(lanes, [&](unsigned l) {
        out(l, pval(w, inst.psrc[0], l) ? fval(w, inst.src[0], l) : fval(w, inst.src[1], l));
      });
      return;
    case Op::kMufu:
      for_lanes(lanes, [&](unsigned l) { out(l, mufu(inst.sub, fval(w, inst.src[0], l))); });
      return;
    case Op::kF2fp:
      for_lanes(lanes, [&](unsigned l) {
        const float a = fval(w, inst.src[0], l), b = fval(w, inst.src[1], l);
        const bool bf = (inst.flags & flag::kBf16) != 0;
        const uint32_t hi = bf ? float_to_bf16(a) : float_to_half(a);
        const uint32_t lo = bf ? float_to_bf16(b) : float_to_half(b);
        write(inst, w, inst.dst[0], l, (hi << 16) | lo);
      });
      return;
    case Op::kHfma2:
    case Op::kHadd2:
    case Op::kHmul2:
      for_lanes(lanes, [&](unsigned l) { half2(inst, w, l); });
      return;
    case Op::kI2f:
      for_lanes(lanes, [&](unsigned l) {
        const uint32_t v = ival(w, inst.src[0], l);
        out(l, (inst.flags & flag::kU32) ? static_cast<float>(v)
                                         : static_cast<float>(static_cast<int32_t>(v)));
      });
      return;
    case Op::kF2i:
      for_lanes(lanes, [&](unsigned l) {
        write(inst, w, inst.dst[0], l, f2i(inst, fval(w, inst.src[0], l)));
      });
      return;
    case Op::kF2f:
      for_lanes(lanes, [&](unsigned l) {
        write(inst, w, inst.dst[0], l, f2f(inst, raw(w, inst.src[0], l)));
      });
      return;
    case Op::kFrnd:
      for_lanes(lanes,
                [&](unsigned l) { out(l, round_to_integer(fval(w, inst.src[0], l), inst.sub2)); });
      return;
    default:
      ctx.fail(inst, "no floating-point semantics for this operation");
  }
}

}  // namespace sassim::emu
