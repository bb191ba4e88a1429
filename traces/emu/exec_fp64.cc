// FP64 operations on register pairs (DADD, DMUL, DFMA, DSETP) as IEEE double arithmetic
// on the host: one rounding per operation in the instruction's rounding mode, subnormal
// inputs and results kept (FP64 has no flush-to-zero).
#include <cmath>

#include "traces/emu/exec.h"

namespace sassim::emu {
namespace {

// An FP64 source with '|x|' and '-' applied to the sign bit.
double dval(const Warp& w, const Src& s, unsigned lane) {
  uint64_t v = raw64(w, s, lane);
  if (s.mods & kModAbs) v &= ~(uint64_t{1} << 63);
  if (s.mods & kModNeg) v ^= uint64_t{1} << 63;
  return std::bit_cast<double>(v);
}

double arith(Op op, double a, double b, double c) {
  switch (op) {
    case Op::kDadd:
      return a + b;
    case Op::kDmul:
      return a * b;
    default:
      return std::fma(a, b, c);
  }
}

// DADD a + b, DMUL a * b, DFMA a * b + c, rounded once as `sub2` says.
double compute(const Inst& inst, double a, double b, double c) {
  if (inst.sub2 == 0) return arith(inst.op, a, b, c);
  const ScopedRounding rounding(inst.sub2);
  volatile double va = a, vb = b, vc = c;
  return arith(inst.op, va, vb, vc);
}

}  // namespace

void exec_fp64(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx) {
  switch (inst.op) {
    case Op::kDadd:
    case Op::kDmul:
    case Op::kDfma:
      for_lanes(mask, [&](unsigned l) {
        const double a = dval(w, inst.src[0], l);
        const double b = dval(w, inst.src[1], l);
        const double c = inst.op == Op::kDfma ? dval(w, inst.src[2], l) : 0.0;
        write64(inst, w, inst.dst[0], l, std::bit_cast<uint64_t>(compute(inst, a, b, c)));
      });
      return;
    case Op::kDsetp:
      for_lanes(mask, [&](unsigned l) {
        const bool r = fp_compare(static_cast<Cmp>(inst.sub), dval(w, inst.src[0], l),
                                  dval(w, inst.src[1], l));
        const bool c = pval(w, inst.psrc[0], l);
        const auto op = static_cast<BoolOp>(inst.sub2);
        auto comb = [&](bool x) {
          return op == BoolOp::kAnd ? x && c : op == BoolOp::kOr ? x || c : x != c;
        };
        write_pred(inst, w, inst.pdst[0], l, comb(r));
        write_pred(inst, w, inst.pdst[1], l, comb(!r));
      });
      return;
    default:
      ctx.fail(inst, "no FP64 semantics for this operation");
  }
}

}  // namespace sassim::emu
