// Loads, stores, atomics and asynchronous copies on global, shared, local and
// constant memory. Every access is checked against the buffer it falls in.
#include <fmt/format.h>

#include <bit>
#include <cmath>

#include "traces/emu/exec.h"
#include "traces/emu/memory_access.h"

namespace sassim::emu {
namespace {

uint32_t regs_of(uint8_t width) {
  return width <= 4 ? 1U : width / 4U;
}

uint32_t extend(const Inst& inst, uint32_t v) {
  if (inst.width == 1)
    return (inst.flags & flag::kSigned) ? static_cast<uint32_t>(static_cast<int8_t>(v)) : v & 0xffU;
  if (inst.width == 2)
    return (inst.flags & flag::kSigned) ? static_cast<uint32_t>(static_cast<int16_t>(v))
                                        : v & 0xffffU;
  return v;
}

void load(const Inst& inst, Warp& w, unsigned lane, const uint8_t* p) {
  if (inst.width >= 4 && inst.dst[0] < kRowScratch) {
    for (uint32_t k = 0; k < inst.width / 4U; ++k)
      std::memcpy(&w.reg(static_cast<uint16_t>(inst.dst[0] + k), lane), p + 4 * k, 4);
    return;
  }
  const uint32_t n = regs_of(inst.width);
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t v = 0;
    std::memcpy(&v, p + 4 * k, std::min<uint32_t>(inst.width, 4));
    const uint16_t row =
        inst.dst[0] >= kRowScratch ? inst.dst[0] : static_cast<uint16_t>(inst.dst[0] + k);
    w.reg(row, lane) = extend(inst, v);
  }
}

void store(const Inst& inst, const Warp& w, unsigned lane, uint8_t* p) {
  const Src& s = inst.src[0];
  const uint32_t n = regs_of(inst.width);
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t v = 0;
    if (s.kind == SrcKind::kReg && s.reg != kRowZero)
      v = w.reg(static_cast<uint16_t>(s.reg + k), lane);
    else if (s.kind != SrcKind::kReg)
      v = raw(w, s, lane);
    std::memcpy(p + 4 * k, &v, std::min<uint32_t>(inst.width, 4));
  }
}

uint32_t atomic32(const Inst& inst, uint32_t old, uint32_t v, uint32_t v2) {
  const bool s = (inst.flags & flag::kSigned) != 0;
  switch (inst.sub) {
    case 0:
      return inst.sub2
                 ? std::bit_cast<uint32_t>(std::bit_cast<float>(old) + std::bit_cast<float>(v))
                 : old + v;
    case 1:
      return s ? static_cast<uint32_t>(std::min(static_cast<int32_t>(old), static_cast<int32_t>(v)))
               : std::min(old, v);
    case 2:
      return s ? static_cast<uint32_t>(std::max(static_cast<int32_t>(old), static_cast<int32_t>(v)))
               : std::max(old, v);
    case 3:
      return v;  // EXCH
    case 4:
      return old == v ? v2 : old;  // CAS
    case 5:
      return old & v;
    case 6:
      return old | v;
    case 7:
      return old ^ v;
    case 8:
      return old >= v ? 0 : old + 1;  // INC
    default:
      return (old == 0 || old > v) ? v : old - 1;  // DEC
  }
}

}  // namespace

void exec_mem(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx) {
  MemoryAccess mem(ctx, inst);
  switch (inst.op) {
    case Op::kLdg:
      for_lanes(mask, [&](unsigned l) {
        const uint64_t a = address(w, inst.mem, l);
        w.addrs.push_back(a);
        load(inst, w, l, mem.global(a, inst.width));
      });
      return;
    case Op::kStg:
      for_lanes(mask, [&](unsigned l) {
        const uint64_t a = address(w, inst.mem, l);
        w.addrs.push_back(a);
        store(inst, w, l, mem.global(a, inst.width));
      });
      return;
    case Op::kLds:
      for_lanes(mask, [&](unsigned l) {
        const auto a = static_cast<uint32_t>(address(w, inst.mem, l));
        w.addrs.push_back(a);
        load(inst, w, l, mem.shared(a, inst.width));
      });
      return;
    case Op::kSts:
      for_lanes(mask, [&](unsigned l) {
        const auto a = static_cast<uint32_t>(address(w, inst.mem, l));
        w.addrs.push_back(a);
        store(inst, w, l, mem.shared(a, inst.width));
      });
      return;
    case Op::kLdl:
    case Op::kStl:
      for_lanes(mask, [&](unsigned l) {
        const auto a = static_cast<uint32_t>(address(w, inst.mem, l));
        w.addrs.push_back(a);
        uint8_t* p = mem.local(w, l, a, inst.width);
        if (inst.op == Op::kLdl)
          load(inst, w, l, p);
        else
          store(inst, w, l, p);
      });
      return;
    case Op::kLdc:
      for_lanes(lanes_of(inst, mask), [&](unsigned l) {
        const uint32_t index = inst.sub == 2 ? w.ur[inst.mem.reg] : w.reg(inst.mem.reg, l);
        const uint64_t off = uint64_t{index} + static_cast<uint64_t>(inst.mem.offset);
        write(inst, w, inst.dst[0], l, ctx.bank.read_u32(off));
        if (inst.width == 8)
          write(inst, w, static_cast<uint16_t>(inst.dst[0] + 1), l, ctx.bank.read_u32(off + 4));
      });
      return;
    case Op::kLdgsts:
      if (inst.flags & flag::kZfill) ctx.fail(inst, "LDGSTS.ZFILL is not supported");
      for_lanes(mask, [&](unsigned l) {
        const uint64_t g = address(w, inst.mem2, l);
        const auto s = static_cast<uint32_t>(address(w, inst.mem, l));
        w.addrs.push_back(g);
        std::memcpy(mem.shared(s, inst.width), mem.global(g, inst.width), inst.width);
      });
      return;
    case Op::kAtomg:
    case Op::kAtoms:
    case Op::kRed:
      if (inst.width != 4) ctx.fail(inst, "only 32-bit atomics are supported");
      for_lanes(mask, [&](unsigned l) {
        const uint64_t a = inst.op == Op::kAtoms ? static_cast<uint32_t>(address(w, inst.mem, l))
                                                 : address(w, inst.mem, l);
        w.addrs.push_back(a);
        uint8_t* p =
            inst.op == Op::kAtoms ? mem.shared(static_cast<uint32_t>(a), 4) : mem.global(a, 4);
        uint32_t old;
        std::memcpy(&old, p, 4);
        const uint32_t v = raw(w, inst.src[0], l);
        const uint32_t v2 = inst.nsrc > 1 ? raw(w, inst.src[1], l) : 0;
        const uint32_t updated = atomic32(inst, old, v, v2);
        std::memcpy(p, &updated, 4);
        if (inst.op != Op::kRed) w.reg(inst.dst[0], l) = old;
      });
      return;
    default:
      ctx.fail(inst, "no memory semantics for this operation");
  }
}

}  // namespace sassim::emu
