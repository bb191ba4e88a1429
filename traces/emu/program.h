// A kernel's SASS pre-decoded for execution: every instruction of a listing function
// turned once into an operation code and resolved operand descriptors (constants of
// bank 0 folded into immediates), so that executing it compares no strings.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "traces/sass/listing.h"

namespace sassim::emu {

// Register rows of a warp's register file: R0..R254, RZ (255) and a second zero row
// (256) so that RZ.64 reads zero in both halves, then scratch rows that writes to RZ go to.
inline constexpr uint16_t kRowZero = 255;
inline constexpr uint16_t kRowScratch = 257;
inline constexpr uint16_t kRegRows = kRowScratch + 8;
// Uniform registers: UR0..UR62, URZ (63), a zero row (64), scratch from 65.
inline constexpr uint16_t kURowZero = 63;
inline constexpr uint16_t kURowScratch = 65;
inline constexpr uint16_t kURegRows = kURowScratch + 8;
// Predicates: P0..P6, PT (7, always true), scratch (8) for writes to PT.
inline constexpr uint8_t kPredTrue = 7;
inline constexpr uint8_t kPredScratch = 8;
inline constexpr uint8_t kPredRows = 9;

enum class Unit : uint8_t { kInt, kFp, kFp64, kMem, kControl, kTensor, kAsync };

enum class Op : uint8_t {
  // integer and logic (exec_int.cc, exec_int2.cc)
  kMov,
  kR2ur,  // R2UR: a vector register's value (of the first active lane) to a uniform one
  kS2r,
  kCs2r,
  kImad,
  kImadWide,
  kImadHi,
  kIadd3,
  kLea,
  kLeaHi,
  kLop3,
  kShf,
  kIsetp,
  kSel,
  kPlop3,
  kPopc,
  kFlo,
  kBrev,
  kIabs,
  kImnmx,
  kViaddmnmx,  // VIADDMNMX: the minimum or maximum of (a + b) and c
  kPrmt,
  kP2r,
  kR2p,
  kShfl,
  kVote,
  // floating point (exec_fp.cc)
  kFfma,
  kFadd,
  kFmul,
  kFmnmx,
  kFsetp,
  kFsel,
  kMufu,
  kF2fp,
  kHfma2,
  kHadd2,
  kHmul2,
  kI2f,
  kF2i,
  kF2f,
  kFrnd,
  // FP64 on register pairs (exec_fp64.cc)
  kDadd,
  kDmul,
  kDfma,
  kDsetp,
  // memory (exec_mem.cc)
  kLdg,
  kStg,
  kLds,
  kSts,
  kLdl,
  kStl,
  kLdc,
  kLdgsts,
  kAtomg,
  kAtoms,
  kRed,
  // tensor (exec_tensor.cc, exec_wgmma.cc)
  kHmma,
  kLdsm,
  kHgmma,
  // Hopper asynchronous operations (exec_async.cc): mbarriers, TMA loads, ELECT
  kSyncs,
  kUtmaldg,
  kElect,
  // control (executor.cc)
  kNop,
  kBra,
  kExit,
  kBssy,
  kBsync,
  kBar,
  kClusterArrive,  // UCGABAR_ARV
  kClusterWait,    // UCGABAR_WAIT
  kCall,
  kRet,
  kWarpsync,
  kBmov,
  kBreak,
};

enum class SrcKind : uint8_t { kNone, kReg, kUReg, kImm };

// Source modifiers.
inline constexpr uint8_t kModNeg = 1;  // '-': FP sign flip, integer two's complement
inline constexpr uint8_t kModAbs = 2;  // '|x|'
inline constexpr uint8_t kModInv = 4;  // '~': bitwise not
// Half selection of packed 16-bit sources (.H0_H0, .H1_H1, .F32).
enum class HalfSel : uint8_t { kNone, kH0H0, kH1H1, kF32 };

struct Src {
  SrcKind kind = SrcKind::kNone;
  uint8_t mods = 0;
  HalfSel half = HalfSel::kNone;
  uint16_t reg = 0;    // register row (kReg, kUReg)
  uint64_t imm = 0;    // kImm: the value (64-bit constants keep both words)
  uint32_t imm32 = 0;  // kImm: the low word (what 32-bit operations read)
};

struct PredSrc {
  uint8_t reg = kPredTrue;
  bool uniform = false;
  bool negate = false;
};

struct MemAddr {
  uint16_t reg = kRowZero;  // general register base (row), kRowZero when absent
  bool wide = false;        // 64-bit base (R2.64)
  uint32_t scale = 1;       // R2.X4
  uint16_t ureg = kURowZero;
  bool uwide = false;  // 64-bit uniform term (UR4.64)
  int64_t offset = 0;
};

// Modifier flags; which apply depends on the operation.
namespace flag {
inline constexpr uint32_t kU32 = 1U << 0;       // unsigned (IMAD, ISETP, SHF, IMNMX, ...)
inline constexpr uint32_t kX = 1U << 1;         // with carry / extended (IADD3.X, ISETP.EX, LEA.X)
inline constexpr uint32_t kHi = 1U << 2;        // SHF .HI, LEA.HI
inline constexpr uint32_t kLeft = 1U << 3;      // SHF.L
inline constexpr uint32_t kWrap = 1U << 4;      // SHF .W
inline constexpr uint32_t k64 = 1U << 5;        // SHF .U64/.S64
inline constexpr uint32_t kFtz = 1U << 6;       // FP flush to zero
inline constexpr uint32_t kSat = 1U << 7;       // FP saturate
inline constexpr uint32_t kTrans = 1U << 8;     // LDSM .MT88
inline constexpr uint32_t kBf16 = 1U << 9;      // HMMA .BF16
inline constexpr uint32_t kSigned = 1U << 10;   // loads: sign extension (.S8/.S16)
inline constexpr uint32_t kSx32 = 1U << 11;     // LEA.HI .SX32
inline constexpr uint32_t kUniform = 1U << 12;  // uniform datapath (UIADD3, ULDC, ...)
inline constexpr uint32_t kZfill = 1U << 13;    // LDGSTS .ZFILL
inline constexpr uint32_t kClear = 1U << 14;    // BMOV .CLEAR
inline constexpr uint32_t kAny = 1U << 15;  // BRA .ANY: all lanes go when any lane's guard holds
// QGMMA: 8-bit operands (E4M3 unless Inst::sub says E5M2: bit 0 for A, bit 1 for B).
inline constexpr uint32_t kFp8 = 1U << 16;
inline constexpr uint32_t kShiftAmount = 1U << 17;  // FLO .SH: 31 - the bit's position
}  // namespace flag

// What a SYNCS instruction does to its mbarrier (Inst::sub).
enum class SyncsOp : uint8_t {
  kInit,      // SYNCS.EXCH.64: mbarrier.init
  kArrive,    // SYNCS.ARRIVE.TRANS64.A1T0: mbarrier.arrive
  kArriveTx,  // SYNCS.ARRIVE.TRANS64: mbarrier.arrive.expect_tx
  kTryWait,   // SYNCS.PHASECHK.TRANS64.TRYWAIT: mbarrier.try_wait.parity
};

// Comparison of ISETP / FSETP (U: unordered also true).
enum class Cmp : uint8_t {
  kF,
  kLt,
  kEq,
  kLe,
  kGt,
  kNe,
  kGe,
  kT,
  kNum,
  kNan,
  kLtu,
  kEqu,
  kLeu,
  kGtu,
  kNeu,
  kGeu
};
enum class BoolOp : uint8_t { kAnd, kOr, kXor };
enum class Rounding : uint8_t { kRn, kRz, kRm, kRp };

struct Inst {
  Op op = Op::kNop;
  Unit unit = Unit::kControl;
  uint8_t nsrc = 0;
  uint8_t sub = 0;     // per operation: Cmp, MUFU function, SHFL mode, atomic op, ...
  uint8_t sub2 = 0;    // per operation: BoolOp, Rounding, LDSM matrices, ...
  uint8_t width = 4;   // memory access bytes per thread (1..16); result registers of loads
  uint16_t mma_n = 0;  // HGMMA / QGMMA: N of its 64xNx16 / 64xNx32 shape
  uint32_t flags = 0;
  PredSrc guard;                                          // reg kPredTrue, not negated: unguarded
  std::array<uint16_t, 2> dst{kRowScratch, kRowScratch};  // register rows
  std::array<uint8_t, 2> pdst{kPredScratch, kPredScratch};
  std::array<Src, 5> src{};
  std::array<PredSrc, 3> psrc{};
  // Loads, stores, atomics, SYNCS: the address; LDGSTS: the shared address; UTMALDG: the
  // uniform registers of its destination, mbarrier and coordinates; HGMMA: the
  // uniform registers of its matrix descriptors (ureg).
  MemAddr mem;
  MemAddr mem2;         // LDGSTS: the global address; UTMALDG: the tensor map's
  uint32_t target = 0;  // branch target (instruction index)
  uint64_t pc = 0;
  uint32_t line = 0;
};

// How a listing's constant bank 0 is laid out for one launch.
struct ConstBank {
  std::vector<uint8_t> bytes;
  // Bank 2, the compiler's constants (64-bit values the instruction encodings cannot
  // hold). nvdisasm does not print it: it comes from a file beside the listing.
  std::vector<uint8_t> bank2;
  uint32_t read_u32(uint64_t offset) const;
  bool has_bank2(uint64_t offset, uint64_t size) const { return offset + size <= bank2.size(); }
  uint32_t read_bank2_u32(uint64_t offset) const;
};

struct Program {
  std::string name;
  std::string origin;  // the listing file, for messages
  uint32_t registers = 0;
  std::vector<Inst> insts;
  // Per instruction, the trace-line text after the mask: "NDST DSTS OPCODE NSRC SRCS".
  std::vector<std::string> trace_text;
  std::vector<int64_t> trace_immediate;  // the trace line's last field
  std::vector<std::string> mnemonic;     // for messages
  // PC -> instruction index (PCs are multiples of 16 from 0).
  uint32_t index_of_pc(uint64_t pc, uint32_t from_index) const;
};

// Decodes a listing function against constant bank 0 of a launch. Throws sassim::Error
// "FILE:LINE: PC 0x..: OPCODE: what is unsupported" for an opcode or modifier the
// executor does not implement.
Program decode_program(const traces::sass::Function& function, std::string_view origin,
                       const ConstBank& bank);

}  // namespace sassim::emu
