#include "traces/emu/decode_ops.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace sassim::emu::detail {
namespace {

using traces::sass::Instruction;

struct OpcodeRow {
  std::string_view name;
  Op op;
  Unit unit;
  OpShape shape;
  bool uniform = false;
};

constexpr OpShape kR{1, 0};
constexpr OpShape kRP{1, 2};
constexpr OpShape kP2{0, 2};
constexpr OpShape kNone{0, 0};

constexpr std::array kRows = std::to_array<OpcodeRow>({
    {"MOV", Op::kMov, Unit::kInt, kR},
    {"UMOV", Op::kMov, Unit::kInt, kR, true},
    {"R2UR", Op::kR2ur, Unit::kInt, kR, true},
    {"S2R", Op::kS2r, Unit::kInt, kR},
    {"S2UR", Op::kS2r, Unit::kInt, kR, true},
    {"CS2R", Op::kCs2r, Unit::kInt, kR},
    {"IMAD", Op::kImad, Unit::kInt, kRP},
    {"UIMAD", Op::kImad, Unit::kInt, kRP, true},
    {"IADD3", Op::kIadd3, Unit::kInt, kRP},
    {"UIADD3", Op::kIadd3, Unit::kInt, kRP, true},
    {"VIADD", Op::kIadd3, Unit::kInt, kR},
    {"LEA", Op::kLea, Unit::kInt, kRP},
    {"ULEA", Op::kLea, Unit::kInt, kRP, true},
    {"LOP3", Op::kLop3, Unit::kInt, kRP},
    {"ULOP3", Op::kLop3, Unit::kInt, kRP, true},
    {"SHF", Op::kShf, Unit::kInt, kR},
    {"USHF", Op::kShf, Unit::kInt, kR, true},
    {"ISETP", Op::kIsetp, Unit::kInt, kP2},
    {"UISETP", Op::kIsetp, Unit::kInt, kP2, true},
    {"SEL", Op::kSel, Unit::kInt, kR},
    {"USEL", Op::kSel, Unit::kInt, kR, true},
    {"PLOP3", Op::kPlop3, Unit::kInt, kP2},
    {"UPLOP3", Op::kPlop3, Unit::kInt, kP2, true},
    {"POPC", Op::kPopc, Unit::kInt, kR},
    {"UPOPC", Op::kPopc, Unit::kInt, kR, true},
    {"FLO", Op::kFlo, Unit::kInt, kRP},
    {"UFLO", Op::kFlo, Unit::kInt, kRP, true},
    {"BREV", Op::kBrev, Unit::kInt, kR},
    {"UBREV", Op::kBrev, Unit::kInt, kR, true},
    {"IABS", Op::kIabs, Unit::kInt, kR},
    {"IMNMX", Op::kImnmx, Unit::kInt, kR},
    {"VIMNMX", Op::kImnmx, Unit::kInt, kR},  // sm_90's spelling: VIMNMX.U32 Rd, Ra, Rb, PT
    {"UIMNMX", Op::kImnmx, Unit::kInt, kR, true},
    // sm_90: VIADDMNMX(.U32) Rd, Ra, Rb, Rc, Pmin: min (PT) or max (!PT) of Ra + Rb and Rc.
    {"VIADDMNMX", Op::kViaddmnmx, Unit::kInt, kR},
    {"PRMT", Op::kPrmt, Unit::kInt, kR},
    {"UPRMT", Op::kPrmt, Unit::kInt, kR, true},
    {"P2R", Op::kP2r, Unit::kInt, kR},
    {"UP2UR", Op::kP2r, Unit::kInt, kR, true},
    {"R2P", Op::kR2p, Unit::kInt, kNone},
    {"SHFL", Op::kShfl, Unit::kInt, OpShape{1, 1}},
    {"VOTE", Op::kVote, Unit::kInt, OpShape{1, 1}},
    {"VOTEU", Op::kVote, Unit::kInt, OpShape{1, 1}, true},
    {"FFMA", Op::kFfma, Unit::kFp, kR},
    {"FADD", Op::kFadd, Unit::kFp, kR},
    {"FMUL", Op::kFmul, Unit::kFp, kR},
    {"FMNMX", Op::kFmnmx, Unit::kFp, kR},
    {"FSETP", Op::kFsetp, Unit::kFp, kP2},
    {"FSEL", Op::kFsel, Unit::kFp, kR},
    {"MUFU", Op::kMufu, Unit::kFp, kR},
    {"F2FP", Op::kF2fp, Unit::kFp, kR},
    {"HFMA2", Op::kHfma2, Unit::kFp, kR},
    {"HADD2", Op::kHadd2, Unit::kFp, kR},
    {"HMUL2", Op::kHmul2, Unit::kFp, kR},
    {"I2F", Op::kI2f, Unit::kFp, kR},
    {"I2FP", Op::kI2f, Unit::kFp, kR},  // sm_90's integer to FP32 conversion (I2FP.F32.U32)
    {"F2I", Op::kF2i, Unit::kFp, kR},
    {"F2F", Op::kF2f, Unit::kFp, kR},
    {"FRND", Op::kFrnd, Unit::kFp, kR},
    {"DADD", Op::kDadd, Unit::kFp64, kR},
    {"DMUL", Op::kDmul, Unit::kFp64, kR},
    {"DFMA", Op::kDfma, Unit::kFp64, kR},
    {"DSETP", Op::kDsetp, Unit::kFp64, kP2},
    {"LDG", Op::kLdg, Unit::kMem, kR},
    {"STG", Op::kStg, Unit::kMem, kNone},
    {"LDS", Op::kLds, Unit::kMem, kR},
    {"STS", Op::kSts, Unit::kMem, kNone},
    {"LDL", Op::kLdl, Unit::kMem, kR},
    {"STL", Op::kStl, Unit::kMem, kNone},
    {"LDC", Op::kLdc, Unit::kMem, kR},
    {"ULDC", Op::kLdc, Unit::kMem, kR, true},
    {"LDGSTS", Op::kLdgsts, Unit::kMem, kNone},
    {"ATOMG", Op::kAtomg, Unit::kMem, OpShape{1, 1}},
    {"ATOM", Op::kAtomg, Unit::kMem, OpShape{1, 1}},
    {"ATOMS", Op::kAtoms, Unit::kMem, kR},
    {"RED", Op::kRed, Unit::kMem, kNone},
    {"REDG", Op::kRed, Unit::kMem, kNone},
    {"HMMA", Op::kHmma, Unit::kTensor, kR},
    {"LDSM", Op::kLdsm, Unit::kTensor, kR},
    {"HGMMA", Op::kHgmma, Unit::kTensor, kR},
    {"QGMMA", Op::kHgmma, Unit::kTensor, kR},  // the same operation on 8-bit floats
    {"SYNCS", Op::kSyncs, Unit::kAsync, OpShape{1, 1}},
    {"UTMALDG", Op::kUtmaldg, Unit::kAsync, kNone},
    {"ELECT", Op::kElect, Unit::kAsync, OpShape{1, 1}},
    {"WARPGROUP", Op::kNop, Unit::kControl, kNone},
    {"NOP", Op::kNop, Unit::kControl, kNone},
    {"DEPBAR", Op::kNop, Unit::kControl, kNone},
    {"LDGDEPBAR", Op::kNop, Unit::kControl, kNone},
    {"MEMBAR", Op::kNop, Unit::kControl, kNone},
    {"FENCE", Op::kNop, Unit::kControl, kNone},
    {"ERRBAR", Op::kNop, Unit::kControl, kNone},
    {"CCTL", Op::kNop, Unit::kControl, kNone},
    {"YIELD", Op::kNop, Unit::kControl, kNone},
    {"BRA", Op::kBra, Unit::kControl, kNone},
    {"EXIT", Op::kExit, Unit::kControl, kNone},
    {"BSSY", Op::kBssy, Unit::kControl, kNone},
    {"BSYNC", Op::kBsync, Unit::kControl, kNone},
    {"BAR", Op::kBar, Unit::kControl, kNone},
    {"UCGABAR_ARV", Op::kClusterArrive, Unit::kControl, kNone},
    {"UCGABAR_WAIT", Op::kClusterWait, Unit::kControl, kNone},
    {"CGAERRBAR", Op::kNop, Unit::kControl, kNone},
    {"CALL", Op::kCall, Unit::kControl, kNone},
    {"RET", Op::kRet, Unit::kControl, kNone},
    {"WARPSYNC", Op::kWarpsync, Unit::kControl, kNone},
    {"BMOV", Op::kBmov, Unit::kControl, kR},
    {"BREAK", Op::kBreak, Unit::kControl, kNone},
});

// Modifiers that change nothing the executor computes (cache, scope and scheduling hints).
constexpr std::array<std::string_view, 22> kIgnored = {"E",
                                                       "CONSTANT",
                                                       "STRONG",
                                                       "GPU",
                                                       "SYS",
                                                       "CTA",
                                                       "SM",
                                                       "EF",
                                                       "EL",
                                                       "LU",
                                                       "EU",
                                                       "NA",
                                                       "LTC64B",
                                                       "LTC128B",
                                                       "LTC256B",
                                                       "BYPASS",
                                                       "DEFER_BLOCKING",
                                                       "REL",
                                                       "NOINC",
                                                       "NODEC",
                                                       "MMA",
                                                       "SYNC"};

bool ignored(std::string_view m) {
  return std::find(kIgnored.begin(), kIgnored.end(), m) != kIgnored.end();
}

std::optional<Cmp> cmp_of(std::string_view m) {
  constexpr std::array<std::string_view, 16> names = {"F",   "LT",  "EQ",  "LE",  "GT",  "NE",
                                                      "GE",  "T",   "NUM", "NAN", "LTU", "EQU",
                                                      "LEU", "GTU", "NEU", "GEU"};
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == m) return static_cast<Cmp>(i);
  }
  return std::nullopt;
}

std::optional<uint8_t> width_of(std::string_view m) {
  if (m == "U8" || m == "S8") return 1;
  if (m == "U16" || m == "S16") return 2;
  if (m == "32") return 4;
  if (m == "64") return 8;
  if (m == "128") return 16;
  return std::nullopt;
}

}  // namespace

std::string decode_opcode(const Instruction& source, Inst& inst, OpShape& shape) {
  const OpcodeRow* row = nullptr;
  for (const OpcodeRow& r : kRows) {
    if (r.name == source.opcode) row = &r;
  }
  if (row == nullptr) return "unsupported opcode " + source.opcode;
  inst.op = row->op;
  inst.unit = row->unit;
  shape = row->shape;
  if (row->uniform) inst.flags |= flag::kUniform;
  const Op op = row->op;
  if (op == Op::kMufu) inst.sub = 255;
  if (op == Op::kCs2r) inst.width = 8;  // a register pair; CS2R.32 writes one register
  if (op == Op::kHgmma || op == Op::kSyncs || op == Op::kUtmaldg || op == Op::kElect)
    return decode_hopper_modifiers(source, inst);
  for (const std::string& mod : source.modifiers) {
    const std::string_view m = mod;
    if (ignored(m)) continue;
    if (m == "U32" || m == "U64" || m == "U16" || m == "U8") {
      inst.flags |= flag::kU32;
      if (m == "U64") inst.flags |= flag::k64;
      if (op == Op::kLdg || op == Op::kLds || op == Op::kLdl || op == Op::kStg || op == Op::kSts ||
          op == Op::kStl || op == Op::kAtomg || op == Op::kAtoms || op == Op::kRed) {
        if (auto w = width_of(m)) inst.width = *w;
      }
      continue;
    }
    if (m == "S32" || m == "S64" || m == "S8" || m == "S16") {
      inst.flags |= flag::kSigned;
      if (m == "S64") inst.flags |= flag::k64;
      if (auto w = width_of(m)) inst.width = *w;
      continue;
    }
    if ((m == "64" || m == "128" || m == "32") && op != Op::kShf) {
      inst.width = *width_of(m);
      continue;
    }
    if (m == "SH" && op == Op::kFlo) {
      inst.flags |= flag::kShiftAmount;
      continue;
    }
    if (m == "X" || m == "EX") {
      inst.flags |= flag::kX;
      continue;
    }
    if (m == "HI") {
      inst.flags |= flag::kHi;
      if (op == Op::kImad) inst.op = Op::kImadHi;
      continue;
    }
    if (op == Op::kImad && m == "WIDE") {
      inst.op = Op::kImadWide;
      continue;
    }
    if (op == Op::kImad && (m == "MOV" || m == "SHL" || m == "IADD")) continue;
    if (m == "FTZ") {
      inst.flags |= flag::kFtz;
      continue;
    }
    if (m == "SAT") {
      inst.flags |= flag::kSat;
      continue;
    }
    if (op == Op::kLea && m == "SX32") {
      inst.flags |= flag::kSx32;
      continue;
    }
    if (op == Op::kShf) {
      if (m == "L")
        inst.flags |= flag::kLeft;
      else if (m == "R") {
      } else if (m == "W")
        inst.flags |= flag::kWrap;
      else if (m == "64")
        inst.flags |= flag::k64;
      else
        return "unsupported modifier ." + mod + " of SHF";
      continue;
    }
    if ((op == Op::kIsetp || op == Op::kFsetp || op == Op::kDsetp) && cmp_of(m)) {
      inst.sub = static_cast<uint8_t>(*cmp_of(m));
      continue;
    }
    if ((op == Op::kIsetp || op == Op::kFsetp || op == Op::kDsetp || op == Op::kPlop3) &&
        (m == "AND" || m == "OR" || m == "XOR")) {
      inst.sub2 = static_cast<uint8_t>(m == "AND"  ? BoolOp::kAnd
                                       : m == "OR" ? BoolOp::kOr
                                                   : BoolOp::kXor);
      continue;
    }
    if ((op == Op::kLop3 || op == Op::kPlop3) && m == "LUT") continue;
    if ((op == Op::kFfma || op == Op::kFadd || op == Op::kFmul || op == Op::kF2fp ||
         op == Op::kF2f || op == Op::kI2f || op == Op::kF2i || op == Op::kFrnd || op == Op::kDadd ||
         op == Op::kDmul || op == Op::kDfma) &&
        (m == "RN" || m == "RZ" || m == "RM" || m == "RP" || m == "TRUNC" || m == "FLOOR" ||
         m == "CEIL")) {
      inst.sub2 = static_cast<uint8_t>(m == "RZ" || m == "TRUNC"   ? Rounding::kRz
                                       : m == "RM" || m == "FLOOR" ? Rounding::kRm
                                       : m == "RP" || m == "CEIL"  ? Rounding::kRp
                                                                   : Rounding::kRn);
      continue;
    }
    if (op == Op::kMufu) {
      constexpr std::array<std::string_view, 9> fns = {"RCP", "EX2", "LG2",  "RSQ",   "SQRT",
                                                       "SIN", "COS", "TANH", "RCP64H"};
      auto it = std::find(fns.begin(), fns.end(), m);
      if (it == fns.end()) return "unsupported modifier ." + mod + " of MUFU";
      inst.sub = static_cast<uint8_t>(it - fns.begin());
      continue;
    }
    if (op == Op::kF2fp && (m == "PACK_AB" || m == "F16" || m == "F32")) continue;
    if (op == Op::kF2fp && m == "BF16") {
      inst.flags |= flag::kBf16;
      continue;
    }
    if ((op == Op::kHfma2 || op == Op::kHadd2 || op == Op::kHmul2) && m == "F32") continue;
    if ((op == Op::kI2f || op == Op::kF2i || op == Op::kF2f || op == Op::kFrnd) &&
        (m == "F32" || m == "F16" || m == "F64" || m == "BF16")) {
      // Float formats in order, destination first: codes 1 F32, 2 F16, 3 BF16 in
      // bits 0-1 (first) and 2-3 (second).
      if (m == "F64") return "unsupported modifier .F64 of " + source.opcode;
      const uint8_t code = m == "F32" ? 1 : m == "F16" ? 2 : 3;
      inst.sub = static_cast<uint8_t>((inst.sub & 3U) == 0 ? code : inst.sub | (code << 2));
      continue;
    }
    if ((op == Op::kF2i || op == Op::kI2f) && m == "NTZ") continue;
    if (op == Op::kShfl) {
      constexpr std::array<std::string_view, 4> modes = {"IDX", "UP", "DOWN", "BFLY"};
      auto it = std::find(modes.begin(), modes.end(), m);
      if (it == modes.end()) return "unsupported modifier ." + mod + " of SHFL";
      inst.sub = static_cast<uint8_t>(it - modes.begin());
      continue;
    }
    if (op == Op::kVote) {
      constexpr std::array<std::string_view, 3> modes = {"ALL", "ANY", "EQ"};
      auto it = std::find(modes.begin(), modes.end(), m);
      if (it == modes.end()) return "unsupported modifier ." + mod + " of " + source.opcode;
      inst.sub = static_cast<uint8_t>(it - modes.begin());
      continue;
    }
    if (op == Op::kAtomg || op == Op::kAtoms || op == Op::kRed) {
      constexpr std::array<std::string_view, 10> ops = {"ADD", "MIN", "MAX", "EXCH", "CAS",
                                                        "AND", "OR",  "XOR", "INC",  "DEC"};
      auto it = std::find(ops.begin(), ops.end(), m);
      if (it != ops.end()) {
        inst.sub = static_cast<uint8_t>(it - ops.begin());
        continue;
      }
      if (m == "F32" || m == "FTZ" || m == "RN") {
        inst.sub2 = 1;  // floating-point add
        continue;
      }
      return "unsupported modifier ." + mod + " of " + source.opcode;
    }
    if (op == Op::kHmma) {
      if (m == "16816" || m == "F32") continue;
      if (m == "BF16") {
        inst.flags |= flag::kBf16;
        continue;
      }
      return "unsupported modifier ." + mod + " of HMMA (only HMMA.16816.F32[.BF16])";
    }
    if (op == Op::kLdsm) {
      if (m == "16") continue;
      if (m == "M88" || m == "MT88") {
        if (m == "MT88") inst.flags |= flag::kTrans;
        inst.sub2 = 1;
        continue;
      }
      if (m == "2" || m == "4") {
        inst.sub2 = static_cast<uint8_t>(m == "2" ? 2 : 4);
        continue;
      }
      return "unsupported modifier ." + mod + " of LDSM";
    }
    if (op == Op::kLdgsts && m == "ZFILL") {
      inst.flags |= flag::kZfill;
      continue;
    }
    if (op == Op::kNop || op == Op::kBar || op == Op::kCall || op == Op::kRet || op == Op::kBra ||
        op == Op::kExit || op == Op::kWarpsync) {
      if (m == "LE" || m == "U" || m == "ABS" || m == "KEEPREFCOUNT") continue;
      // FENCE.VIEW.ASYNC.S, MEMBAR.ALL.CTA, WARPGROUP.ARRIVE / .DEPBAR: nothing to compute
      // when every operation completes as it executes.
      if (m == "VIEW" || m == "ASYNC" || m == "S" || m == "ALL" || m == "ARRIVE" || m == "DEPBAR")
        continue;
      // MEMBAR.ALL.GPU, CCTL.IVALL (L1 invalidation after a cluster barrier's acquire): no
      // cache to order or invalidate when every access completes as it executes.
      if (m == "GPU" || m == "IVALL") continue;
      if (op == Op::kBra && m == "ANY") {
        inst.flags |= flag::kAny;
        continue;
      }
    }
    if (op == Op::kLds || op == Op::kSts || op == Op::kLdg || op == Op::kStg) {
      if (m == "U") continue;  // LDS.U: a uniform address hint
    }
    if (op == Op::kBmov && m == "CLEAR") {
      inst.flags |= flag::kClear;
      continue;
    }
    if (op == Op::kP2r || op == Op::kR2p) {
      if (m == "B0" || m == "B1" || m == "B2" || m == "B3") {
        inst.sub = static_cast<uint8_t>(m[1] - '0');
        continue;
      }
    }
    return "unsupported modifier ." + mod + " of " + source.opcode;
  }
  if (op == Op::kLdsm && inst.sub2 == 0) return "LDSM without .M88 / .MT88";
  if (op == Op::kMufu && inst.sub == 255) return "MUFU without a function";
  return {};
}

}  // namespace sassim::emu::detail
