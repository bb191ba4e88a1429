// Bit counting, min/max, byte permutes, predicate moves, shuffles and votes.
#include <algorithm>
#include <array>
#include <bit>

#include "traces/emu/exec.h"

namespace sassim::emu {
namespace {

// PRMT: byte i of the result is byte (sel >> 4i) & 7 of (b:a); with bit 3 of that
// nibble set, the selected byte's sign is replicated (default mode).
uint32_t prmt(uint32_t a, uint32_t sel, uint32_t b) {
  const uint64_t bytes = (uint64_t{b} << 32) | a;
  uint32_t r = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const uint32_t s = (sel >> (4 * i)) & 0xfU;
    auto byte = static_cast<uint32_t>((bytes >> (8 * (s & 7U))) & 0xffU);
    if (s & 8U) byte = (byte & 0x80U) ? 0xffU : 0U;
    r |= byte << (8 * i);
  }
  return r;
}

// SHFL: the source lane of `lane` and whether it is inside the segment.
std::pair<unsigned, bool> shfl_source(uint8_t mode, unsigned lane, uint32_t b, uint32_t c) {
  const uint32_t clamp = c & 0x1fU;
  const uint32_t segmask = (c >> 8) & 0x1fU;
  const uint32_t min_lane = lane & segmask;
  const uint32_t max_lane = min_lane | (clamp & ~segmask);
  int64_t j;
  bool ok;
  switch (mode) {
    case 0:  // IDX
      j = min_lane | (b & ~segmask);
      ok = j <= max_lane;
      break;
    case 1:  // UP
      j = int64_t{lane} - b;
      ok = j >= max_lane;
      break;
    case 2:  // DOWN
      j = int64_t{lane} + b;
      ok = j <= max_lane;
      break;
    default:  // BFLY
      j = lane ^ b;
      ok = j <= max_lane;
  }
  if (!ok || j < 0 || j > 31) return {lane, false};
  return {static_cast<unsigned>(j), true};
}

}  // namespace

void exec_int_misc(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx) {
  const uint32_t lanes = lanes_of(inst, mask);
  switch (inst.op) {
    case Op::kPopc:
      for_lanes(lanes, [&](unsigned l) {
        write(inst, w, inst.dst[0], l,
              static_cast<uint32_t>(std::popcount(ival(w, inst.src[0], l))));
      });
      return;
    case Op::kFlo:
      for_lanes(lanes, [&](unsigned l) {
        const uint32_t v = ival(w, inst.src[0], l);
        uint32_t r;
        if (inst.flags & flag::kU32) {
          r = v == 0 ? ~0U : 31U - static_cast<uint32_t>(std::countl_zero(v));
        } else {
          const uint32_t x = static_cast<int32_t>(v) < 0 ? ~v : v;
          r = x == 0 ? ~0U : 31U - static_cast<uint32_t>(std::countl_zero(x));
        }
        // .SH (bfind.shiftamt): the left shift that brings the bit to bit 31; none stays ~0.
        if ((inst.flags & flag::kShiftAmount) != 0 && r != ~0U) r = 31U - r;
        write(inst, w, inst.dst[0], l, r);
      });
      return;
    case Op::kBrev:
      for_lanes(lanes, [&](unsigned l) {
        uint32_t v = ival(w, inst.src[0], l), r = 0;
        for (int i = 0; i < 32; ++i, v >>= 1) r = (r << 1) | (v & 1U);
        write(inst, w, inst.dst[0], l, r);
      });
      return;
    case Op::kIabs:
      for_lanes(lanes, [&](unsigned l) {
        const uint32_t v = ival(w, inst.src[0], l);
        write(inst, w, inst.dst[0], l, static_cast<int32_t>(v) < 0 ? 0U - v : v);
      });
      return;
    case Op::kImnmx:
    case Op::kViaddmnmx:
      for_lanes(lanes, [&](unsigned l) {
        const bool add = inst.op == Op::kViaddmnmx;
        const uint32_t a =
            add ? ival(w, inst.src[0], l) + ival(w, inst.src[1], l) : ival(w, inst.src[0], l);
        const uint32_t b = ival(w, inst.src[add ? 2 : 1], l);
        const bool min = pval(w, inst.psrc[0], l);
        const bool a_less =
            (inst.flags & flag::kU32) ? a < b : static_cast<int32_t>(a) < static_cast<int32_t>(b);
        write(inst, w, inst.dst[0], l, (a_less == min) ? a : b);
      });
      return;
    case Op::kPrmt:
      for_lanes(lanes, [&](unsigned l) {
        write(inst, w, inst.dst[0], l,
              prmt(ival(w, inst.src[0], l), raw(w, inst.src[1], l), ival(w, inst.src[2], l)));
      });
      return;
    case Op::kP2r:
      // P2R R, PR, a, mask: predicate bits (byte `sub`) under mask, merged into a.
      for_lanes(lanes, [&](unsigned l) {
        uint32_t bits = 0;
        for (unsigned k = 0; k < 7; ++k) {
          const bool v = is_uniform(inst) ? w.up[k] != 0 : ((w.p[k] >> l) & 1U) != 0;
          bits |= (v ? 1U : 0U) << k;
        }
        const unsigned shift = 8U * inst.sub;
        const uint32_t m = (raw(w, inst.src[1], l) & 0x7fU) << shift;
        const uint32_t a = ival(w, inst.src[0], l);
        write(inst, w, inst.dst[0], l, (a & ~m) | ((bits << shift) & m));
      });
      return;
    case Op::kR2p:
      for_lanes(lanes, [&](unsigned l) {
        const unsigned shift = 8U * inst.sub;
        const uint32_t v = ival(w, inst.src[0], l) >> shift;
        const uint32_t m = raw(w, inst.src[1], l);
        for (uint8_t k = 0; k < 7; ++k) {
          if ((m >> k) & 1U) write_pred(inst, w, k, l, ((v >> k) & 1U) != 0);
        }
      });
      return;
    case Op::kShfl: {
      std::array<uint32_t, 32> values{};
      for (unsigned l = 0; l < 32; ++l) values[l] = raw(w, inst.src[0], l);
      for_lanes(mask, [&](unsigned l) {
        const auto [j, ok] =
            shfl_source(inst.sub, l, raw(w, inst.src[1], l), raw(w, inst.src[2], l));
        write(inst, w, inst.dst[0], l, values[j]);
        write_pred(inst, w, inst.pdst[0], l, ok);
      });
      return;
    }
    case Op::kVote: {
      const uint32_t ballot = pred_mask(w, inst.psrc[0], mask);
      for_lanes(mask, [&](unsigned l) {
        write(inst, w, inst.dst[0], l, ballot);
        bool r;
        switch (inst.sub) {
          case 0:
            r = ballot == mask;
            break;  // ALL
          case 1:
            r = ballot != 0;
            break;  // ANY
          default:
            r = ballot == 0 || ballot == mask;
            break;  // EQ
        }
        write_pred(inst, w, inst.pdst[0], l, r);
      });
      return;
    }
    default:
      ctx.fail(inst, "no integer semantics for this operation");
  }
}

}  // namespace sassim::emu
