// A SASS listing as nvdisasm prints it with encodings (`nvdisasm -c -hex`, or
// `cuobjdump -sass`): the kernels it holds, each a table of instructions by PC with
// their guard predicate, opcode and modifiers, operands, 128-bit encoding and the
// Volta-through-Hopper control bits taken from it.
//
// Used by the SASS executor (`sassim capture`) and by the timing model's control-bit
// mode (`sassim run --sass`). Both join a listing with a trace by (kernel name, PC);
// PCs are offsets from the start of the function, as in Accel-Sim traces.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sassim::traces::sass {

// Register numbers of the hard-wired registers.
inline constexpr uint32_t kRZ = 255;  // R255 reads as zero, writes are dropped
inline constexpr uint32_t kURZ = 63;  // UR63
inline constexpr uint32_t kPT = 7;    // P7 / UP7: always true

enum class OperandKind : uint8_t {
  kReg,          // R5, RZ, R2.64 (suffixes hold ".64"), R6.H1
  kUniformReg,   // UR4, URZ
  kPred,         // P0, PT, !P1 (negate set for '!')
  kUniformPred,  // UP0, UPT, !UP1
  kImmInt,       // 0x4, -0x1, 1 (imm holds the value, sign included)
  kImmFloat,     // 2.384185791015625e-07, +INF, -QNAN, 1.5 (fimm holds the value)
  kConst,        // c[0x0][0x160], cx[UR4][0x10], c[0x3][UR6+0x8]
  kMemory,       // [R2.64+0x10], [R1+UR4], [UR4+0x20], desc[UR4][R2.64+0x4]
  kSpecialReg,   // SR_TID.X, SR_CTAID.Y, SR_LANEID, SRZ, SR_CLOCKLO (name holds it)
  kLabel,        // `(.L_x_1) in branch targets; target_pc holds the resolved PC
  kBarrier,      // B0..B15 of BSSY/BSYNC/BMOV (reg holds the number)
  kScoreboard,   // SB0..SB5 of DEPBAR (reg holds the number)
  kOther,        // anything else (e.g. gdesc[UR4], tnspA): text and name hold it
};

// A register (general or uniform) used inside an address or constant operand.
struct RegRef {
  uint32_t index = kRZ;  // kRZ / kURZ when absent
  bool uniform = false;
  bool wide = false;  // ".64": a 64-bit register pair
  bool present() const { return uniform ? index != kURZ : index != kRZ; }
};

// [reg(.64) + ureg + offset], optionally behind a descriptor (desc[URd]).
struct MemRef {
  RegRef reg;                          // general register base (index kRZ when absent)
  RegRef ureg;                         // uniform register term (index kURZ when absent)
  int64_t offset = 0;                  // immediate displacement (may be negative)
  uint32_t scale = 1;                  // ".X4" on the general register: it is multiplied by 4
  std::optional<uint32_t> descriptor;  // desc[URd]: the uniform register d
};

struct Operand {
  OperandKind kind = OperandKind::kOther;
  std::string text;  // as written in the listing, for messages
  // kReg / kUniformReg / kPred / kUniformPred / kBarrier: the register number
  // (RZ = 255, URZ = 63, PT = UPT = 7).
  uint32_t reg = 0;
  bool negate = false;    // '-' for values, '!' for predicates
  bool absolute = false;  // |R3|
  bool invert = false;    // '~R3' (bitwise not)
  bool reuse = false;     // ".reuse" (also in the control bits)
  // Other dot-suffixes in order, without the dot and without "reuse":
  // "64", "H0_H0", "H1", "F32", "X", "B1", ...
  std::vector<std::string> suffixes;
  int64_t imm = 0;  // kImmInt
  // kImmFloat; a decimal kImmInt also holds its value here (HFMA2 writes 0.0 as "0").
  double fimm = 0.0;
  // kConst: bank (bank_reg present for cx[URn]) and offset (offset_reg for [URn+k]).
  uint32_t const_bank = 0;
  RegRef const_bank_reg;
  int64_t const_offset = 0;
  RegRef const_offset_reg;
  MemRef mem;              // kMemory
  std::string name;        // kSpecialReg / kLabel / kOther: the name
  uint64_t target_pc = 0;  // kLabel, resolved within the function

  bool has_suffix(std::string_view s) const;
};

// The scheduling word of Volta through Hopper: the high 64 bits >> 41.
struct ControlBits {
  uint8_t stall = 0;  // bits 0-3: cycles before the next instruction issues
  // Bit 4, stored inverted: a clear bit is the yield hint (maxas, MaxAs.pm printCtrl:
  // `$yield = $yield ? '-' : 'Y'`; nvcc clears it where a warp should give way, e.g. on
  // stall counts above 11).
  bool yield = false;
  uint8_t write_barrier = 7;  // bits 5-7: scoreboard set when results land (7 = none)
  uint8_t read_barrier = 7;   // bits 8-10: scoreboard set when sources are read (7 = none)
  uint8_t wait_mask = 0;      // bits 11-16: scoreboards waited on before issue
  uint8_t reuse = 0;          // bits 17-20: operand reuse-cache flags
};
ControlBits decode_control(uint64_t high_word);

struct Instruction {
  uint64_t pc = 0;
  uint32_t line = 0;  // line of the listing where the instruction starts
  // Guard predicate: @P0 / @!UP1. Absent for unguarded instructions (and for @PT).
  struct Guard {
    uint32_t reg = 0;
    bool uniform = false;
    bool negate = false;
  };
  std::optional<Guard> guard;
  std::string mnemonic;                // "IMAD.WIDE.U32" as written
  std::string opcode;                  // "IMAD"
  std::vector<std::string> modifiers;  // {"WIDE", "U32"}
  std::vector<Operand> operands;
  std::array<uint64_t, 2> encoding{};  // low, high 64-bit words
  bool has_encoding = false;
  ControlBits control;  // from encoding[1]; default (no stall, no barriers) without one

  bool has_modifier(std::string_view m) const;
};

struct Function {
  std::string name;        // the kernel's (mangled) symbol
  uint32_t registers = 0;  // from SHI_REGISTERS when the listing gives it, else 0
  uint32_t first_line = 0;
  std::vector<Instruction> instructions;  // in PC order

  // The instruction at `pc`, or nullptr.
  const Instruction* at_pc(uint64_t pc) const;
  // Index into `instructions` of the instruction at `pc`, or nullopt.
  std::optional<size_t> index_of(uint64_t pc) const;
};

struct Listing {
  std::string origin;  // file name for messages
  std::string arch;    // "sm_80", ... when the listing's header says (else empty)
  std::vector<Function> functions;

  const Function* find(std::string_view name) const;
};

// Parses a listing; throws sassim::Error "ORIGIN:LINE: what was expected" on malformed
// input (an instruction without a PC, an unknown operand form, a label used but never
// defined, a PC out of order).
Listing parse_listing(std::string_view text, std::string_view origin);
// Reads and parses a file; throws sassim::Error naming the file when it cannot be read.
Listing read_listing(const std::filesystem::path& path);

}  // namespace sassim::traces::sass
