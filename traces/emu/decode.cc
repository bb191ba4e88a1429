// Operand half of decoding: listing operands to register rows, immediates (constant
// bank 0 folded in), predicates, addresses and branch targets.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "ground/error.h"
#include "traces/emu/decode_ops.h"
#include "traces/emu/fp16.h"
#include "traces/emu/program.h"
#include "traces/emu/special_regs.h"

namespace sassim::emu {
namespace {

using traces::sass::Instruction;
using traces::sass::Operand;
using traces::sass::OperandKind;

uint16_t src_row(uint32_t reg, bool uniform) {
  if (uniform) return static_cast<uint16_t>(reg >= traces::sass::kURZ ? kURowZero : reg);
  return static_cast<uint16_t>(reg >= traces::sass::kRZ ? kRowZero : reg);
}
uint16_t dst_row(uint32_t reg, bool uniform) {
  if (uniform) return static_cast<uint16_t>(reg >= traces::sass::kURZ ? kURowScratch : reg);
  return static_cast<uint16_t>(reg >= traces::sass::kRZ ? kRowScratch : reg);
}

bool is_fp_op(Op op) {
  switch (op) {
    case Op::kFfma:
    case Op::kFadd:
    case Op::kFmul:
    case Op::kFmnmx:
    case Op::kFsetp:
    case Op::kFsel:
    case Op::kMufu:
    case Op::kF2fp:
    case Op::kF2i:
    case Op::kF2f:
    case Op::kFrnd:
    case Op::kHfma2:
    case Op::kHadd2:
    case Op::kHmul2:
    case Op::kDadd:
    case Op::kDmul:
    case Op::kDfma:
    case Op::kDsetp:
      return true;
    default:
      return false;
  }
}

bool is_fp64_op(Op op) {
  return op == Op::kDadd || op == Op::kDmul || op == Op::kDfma || op == Op::kDsetp;
}

template <typename M>
uint32_t scale_of(const M& m) {
  if constexpr (requires { m.scale; }) {
    return m.scale;
  } else {
    return 1;
  }
}

class Decoder {
 public:
  Decoder(const traces::sass::Function& f, std::string_view origin, const ConstBank& bank)
      : function_(f), origin_(origin), bank_(bank) {}

  [[noreturn]] void fail(const Instruction& s, std::string_view what) const {
    throw Error(fmt::format("{}:{}: PC 0x{:04x}: {}: {}", origin_, s.line, s.pc, s.mnemonic, what));
  }

  uint32_t target_index(const Instruction& s, uint64_t pc) const {
    const auto& insts = function_.instructions;
    for (size_t k = 0; k < insts.size(); ++k) {
      if (insts[k].pc == pc) return static_cast<uint32_t>(k);
    }
    fail(s, fmt::format("branch target PC 0x{:04x} is not an instruction", pc));
  }

  MemAddr mem_addr(const traces::sass::MemRef& m) const {
    MemAddr a;
    a.reg = src_row(m.reg.index, false);
    a.wide = m.reg.wide;
    a.scale = scale_of(m);
    a.ureg = src_row(m.ureg.index, true);
    a.uwide = m.ureg.wide;
    a.offset = m.offset;
    return a;
  }

  Src value_src(const Instruction& s, const Operand& o, const Inst& inst) const {
    Src v;
    if (o.negate) v.mods |= kModNeg;
    if (o.absolute) v.mods |= kModAbs;
    if (o.invert) v.mods |= kModInv;
    for (const std::string& suffix : o.suffixes) {
      if (suffix == "H0_H0")
        v.half = HalfSel::kH0H0;
      else if (suffix == "H1_H1")
        v.half = HalfSel::kH1H1;
      else if (suffix == "F32")
        v.half = HalfSel::kF32;
      else if (suffix == "64" || suffix == "reuse") {
      } else {
        fail(s, fmt::format("unsupported operand suffix .{} in {}", suffix, o.text));
      }
    }
    switch (o.kind) {
      case OperandKind::kReg:
        v.kind = SrcKind::kReg;
        v.reg = src_row(o.reg, false);
        break;
      case OperandKind::kUniformReg:
        v.kind = SrcKind::kUReg;
        v.reg = src_row(o.reg, true);
        break;
      case OperandKind::kImmInt: {
        v.kind = SrcKind::kImm;
        const bool hex = o.text.find("0x") != std::string::npos;
        if (is_fp64_op(inst.op)) {
          // An FP64 immediate: a decimal value, or in hex the high word (the encoding's 32 bits).
          v.imm =
              hex ? static_cast<uint64_t>(o.imm) << 32
                  : std::bit_cast<uint64_t>(o.fimm != 0.0 ? o.fimm : static_cast<double>(o.imm));
        } else if (is_fp_op(inst.op) && !hex) {
          v.imm = std::bit_cast<uint32_t>(
              static_cast<float>(o.fimm != 0.0 ? o.fimm : static_cast<double>(o.imm)));
        } else {
          v.imm = static_cast<uint64_t>(o.imm);
        }
        break;
      }
      case OperandKind::kImmFloat: {
        if (!is_fp_op(inst.op))
          fail(s, fmt::format("float immediate {} of an integer operation", o.text));
        v.kind = SrcKind::kImm;
        if (is_fp64_op(inst.op)) {
          v.imm = std::isnan(o.fimm) ? 0x7fffffffffffffffULL : std::bit_cast<uint64_t>(o.fimm);
          break;
        }
        float f = static_cast<float>(o.fimm);
        if (std::isnan(o.fimm)) f = std::bit_cast<float>(0x7fffffffU);
        v.imm = std::bit_cast<uint32_t>(f);
        break;
      }
      case OperandKind::kConst: {
        if (o.const_bank == 2 && !o.const_bank_reg.present() && !o.const_offset_reg.present()) {
          const auto off = static_cast<uint64_t>(o.const_offset);
          if (!bank_.has_bank2(off, 4)) {
            fail(s, fmt::format("the value of {} is not known: expected it in a .const2 file "
                                "beside the listing (lines 'OFFSET VALUE')",
                                o.text));
          }
          v.kind = SrcKind::kImm;
          v.imm = bank_.read_bank2_u32(off) |
                  (bank_.has_bank2(off + 4, 4) ? uint64_t{bank_.read_bank2_u32(off + 4)} << 32 : 0);
          break;
        }
        if (o.const_bank != 0 || o.const_bank_reg.present() || o.const_offset_reg.present()) {
          fail(s, fmt::format("constant {} with a register index: only c[0x0][imm] (and LDC)",
                              o.text));
        }
        v.kind = SrcKind::kImm;
        const auto off = static_cast<uint64_t>(o.const_offset);
        v.imm = bank_.read_u32(off) | (uint64_t{bank_.read_u32(off + 4)} << 32);
        break;
      }
      default:
        fail(s, fmt::format("unexpected operand {}", o.text));
    }
    // Immediates take their modifiers now.
    if (v.kind == SrcKind::kImm && v.mods != 0 && !is_fp_op(inst.op)) {
      auto x = static_cast<uint32_t>(v.imm);
      if (v.mods & kModInv) x = ~x;
      if (v.mods & kModNeg) x = 0U - x;
      v.imm = x;
      v.mods = 0;
    }
    return v;
  }

  Inst decode(const Instruction& s, std::string& trace_text, int64_t& trace_imm) const {
    Inst inst;
    inst.pc = s.pc;
    inst.line = s.line;
    if (s.guard)
      inst.guard = {static_cast<uint8_t>(s.guard->reg), s.guard->uniform, s.guard->negate};
    detail::OpShape shape;
    if (std::string err = detail::decode_opcode(s, inst, shape); !err.empty()) fail(s, err);
    const bool uniform = (inst.flags & flag::kUniform) != 0;
    const bool extended =
        (inst.op == Op::kLdg || inst.op == Op::kStg || inst.op == Op::kAtomg ||
         inst.op == Op::kRed) &&
        std::find(s.modifiers.begin(), s.modifiers.end(), "E") != s.modifiers.end();
    std::vector<std::string> dsts;
    std::vector<std::string> srcs;
    size_t i = 0;
    uint8_t reg_dsts = 0, pred_dsts = 0;
    const auto& ops = s.operands;
    // Leading destinations.
    while (i < ops.size()) {
      const Operand& o = ops[i];
      const bool pred = o.kind == OperandKind::kPred || o.kind == OperandKind::kUniformPred;
      const bool reg = o.kind == OperandKind::kReg || o.kind == OperandKind::kUniformReg;
      if (pred && pred_dsts < shape.max_pred_dsts) {
        inst.pdst[pred_dsts++] = o.reg >= kPredTrue ? kPredScratch : static_cast<uint8_t>(o.reg);
      } else if (reg && reg_dsts < shape.max_reg_dsts) {
        inst.dst[reg_dsts++] = dst_row(o.reg, o.kind == OperandKind::kUniformReg);
        if (o.kind == OperandKind::kReg) dsts.push_back(fmt::format("R{}", o.reg));
      } else {
        break;
      }
      ++i;
    }
    // P2R R, PR, ... / R2P PR, R, ...: the predicate-register-file operand.
    if ((inst.op == Op::kP2r || inst.op == Op::kR2p) && i < ops.size() && ops[i].text == "PR") ++i;
    uint8_t nsrc = 0, npsrc = 0, nmem = 0;
    const bool control_like = inst.op == Op::kNop;
    for (; i < ops.size(); ++i) {
      const Operand& o = ops[i];
      if (control_like) continue;
      switch (o.kind) {
        case OperandKind::kPred:
        case OperandKind::kUniformPred:
          if (npsrc == inst.psrc.size()) fail(s, "too many predicate operands");
          inst.psrc[npsrc++] = {static_cast<uint8_t>(o.reg), o.kind == OperandKind::kUniformPred,
                                o.negate};
          break;
        case OperandKind::kMemory: {
          if (nmem == 2) fail(s, "more than two address operands");
          if (!o.suffixes.empty())
            fail(s, fmt::format("unsupported address suffix .{} in {}", o.suffixes[0], o.text));
          MemAddr& a = nmem++ == 0 ? inst.mem : inst.mem2;
          a = mem_addr(o.mem);
          // .E (extended address): the register base is a 64-bit pair even where the
          // listing does not write .64 (sm_70's "LDG.E.SYS R8, [R8]").
          if (extended && &a == &inst.mem) a.wide = true;
          if (o.mem.reg.present() && !o.mem.reg.uniform)
            srcs.push_back(fmt::format("R{}", o.mem.reg.index));
          break;
        }
        case OperandKind::kSpecialReg: {
          auto sr = special_reg(o.name);
          if (!sr) fail(s, fmt::format("unsupported special register {}", o.name));
          inst.sub = static_cast<uint8_t>(*sr);
          break;
        }
        case OperandKind::kLabel:
          inst.target = target_index(s, o.target_pc);
          trace_imm = static_cast<int64_t>(o.target_pc);
          break;
        case OperandKind::kBarrier:
          inst.sub = static_cast<uint8_t>(o.reg);
          break;
        case OperandKind::kOther:
          wgmma_operand(s, o, inst);
          break;
        case OperandKind::kConst:
          if (inst.op == Op::kLdc &&
              (o.const_offset_reg.present() && !o.const_bank_reg.present()) && o.const_bank == 0) {
            inst.mem.reg = src_row(o.const_offset_reg.index, o.const_offset_reg.uniform);
            inst.mem.offset = o.const_offset;
            inst.sub = o.const_offset_reg.uniform ? 2 : 1;  // register-indexed
            break;
          }
          [[fallthrough]];
        default: {
          if (nsrc == inst.src.size()) fail(s, "too many source operands");
          inst.src[nsrc] = value_src(s, o, inst);
          if (o.kind == OperandKind::kReg) srcs.push_back(fmt::format("R{}", o.reg));
          if (o.kind == OperandKind::kImmInt && trace_imm == 0) trace_imm = o.imm;
          ++nsrc;
        }
      }
    }
    inst.nsrc = nsrc;
    finish(s, inst);
    for (Src& v : inst.src) v.imm32 = static_cast<uint32_t>(v.imm);
    (void)uniform;
    trace_text =
        fmt::format("{}{}{} {} {}{}{}", dsts.size(), dsts.empty() ? "" : " ", fmt::join(dsts, " "),
                    s.mnemonic, srcs.size(), srcs.empty() ? "" : " ", fmt::join(srcs, " "));
    return inst;
  }

  // HGMMA's "gdesc[URn]" (the uniform registers of its matrix descriptors) and "gsb0"
  // (it commits a wgmma group: nothing to compute).
  void wgmma_operand(const Instruction& s, const Operand& o, Inst& inst) const {
    if (inst.op == Op::kHgmma && o.name == "gsb0") return;
    unsigned reg = 0;
    const std::string_view name = o.name;
    const bool desc = name.starts_with("gdesc[UR") && name.ends_with("]") &&
                      std::from_chars(name.data() + 8, name.data() + name.size() - 1, reg).ptr ==
                          name.data() + name.size() - 1;
    if (inst.op != Op::kHgmma || !desc || reg + 3 >= kURowZero)
      fail(s, fmt::format("unexpected operand {}", o.text));
    inst.mem.ureg = static_cast<uint16_t>(reg);
  }

  // Per-operation fix-ups of the generic operand layout.
  void finish(const Instruction& s, Inst& inst) const {
    // A 16-bit pair immediate ("0, 2.38e-07") is one 32-bit source: high half first.
    if ((inst.op == Op::kHfma2 || inst.op == Op::kHadd2 || inst.op == Op::kHmul2) &&
        inst.nsrc >= 2) {
      std::vector<Src> merged;
      for (uint8_t k = 0; k < inst.nsrc; ++k) {
        const Src& a = inst.src[k];
        const bool pair =
            a.kind == SrcKind::kImm && k + 1 < inst.nsrc && inst.src[k + 1].kind == SrcKind::kImm;
        if (!pair) {
          merged.push_back(a);
          continue;
        }
        Src p;
        p.kind = SrcKind::kImm;
        const uint16_t hi = float_to_half(std::bit_cast<float>(static_cast<uint32_t>(a.imm)));
        const uint16_t lo =
            float_to_half(std::bit_cast<float>(static_cast<uint32_t>(inst.src[k + 1].imm)));
        p.imm = (uint32_t{hi} << 16) | lo;
        if (s.has_encoding) p.imm = static_cast<uint32_t>(s.encoding[0] >> 32);
        merged.push_back(p);
        ++k;
      }
      if (merged.size() > inst.src.size()) fail(s, "too many source operands");
      std::copy(merged.begin(), merged.end(), inst.src.begin());
      inst.nsrc = static_cast<uint8_t>(merged.size());
    }
    if (inst.op == Op::kBmov) {
      // BMOV.32 Rd, Bn reads barrier n (.CLEAR: and clears it); BMOV.32 Bn, Rs writes it.
      const bool to_barrier = !s.operands.empty() && s.operands[0].kind == OperandKind::kBarrier;
      if (to_barrier ? inst.nsrc != 1 : inst.nsrc != 0)
        fail(s, "expected BMOV Rd, Bn or BMOV Bn, Rs");
      inst.sub2 = to_barrier ? 1 : 0;
    }
    if (inst.op == Op::kIadd3 && inst.nsrc == 2)
      inst.src[2] = Src{SrcKind::kImm, 0, HalfSel::kNone, 0, 0};
    if (inst.op == Op::kLdc && inst.sub == 0) {
      // LDC R, c[0x0][imm] is a move of the folded constant.
      if (inst.nsrc != 1) fail(s, "expected one constant operand");
      inst.op = Op::kMov;
      inst.unit = Unit::kInt;
      if (inst.width == 8) inst.flags |= flag::k64;
    }
    if ((inst.op == Op::kBra || inst.op == Op::kCall || inst.op == Op::kBssy) && inst.target == 0 &&
        s.operands.empty()) {
      fail(s, "expected a branch target");
    }
  }

 private:
  const traces::sass::Function& function_;
  std::string_view origin_;
  const ConstBank& bank_;
};

}  // namespace

uint32_t ConstBank::read_u32(uint64_t offset) const {
  if (offset + 4 > bytes.size()) return 0;
  uint32_t v;
  std::memcpy(&v, bytes.data() + offset, 4);
  return v;
}

uint32_t ConstBank::read_bank2_u32(uint64_t offset) const {
  if (offset + 4 > bank2.size()) return 0;
  uint32_t v;
  std::memcpy(&v, bank2.data() + offset, 4);
  return v;
}

uint32_t Program::index_of_pc(uint64_t pc, uint32_t from_index) const {
  const uint64_t guess = pc / 16;
  if (guess < insts.size() && insts[guess].pc == pc) return static_cast<uint32_t>(guess);
  for (uint32_t k = 0; k < insts.size(); ++k) {
    if (insts[k].pc == pc) return k;
  }
  const Inst& from = insts.at(from_index);
  throw Error(
      fmt::format("{}:{}: PC 0x{:04x}: {}: returns to PC 0x{:x}, which is not an "
                  "instruction of {}",
                  origin, from.line, from.pc, mnemonic.at(from_index), pc, name));
}

Program decode_program(const traces::sass::Function& function, std::string_view origin,
                       const ConstBank& bank) {
  Program p;
  p.name = function.name;
  p.origin = origin;
  p.registers = function.registers;
  Decoder d(function, origin, bank);
  p.insts.reserve(function.instructions.size());
  for (const Instruction& s : function.instructions) {
    std::string text;
    int64_t imm = 0;
    p.insts.push_back(d.decode(s, text, imm));
    p.trace_text.push_back(std::move(text));
    p.trace_immediate.push_back(imm);
    p.mnemonic.push_back(s.mnemonic);
  }
  return p;
}

}  // namespace sassim::emu
