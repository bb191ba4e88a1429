#pragma once
// SASS opcode classification per architecture: which functional unit executes an
// opcode, which memory space it touches and how, whether it is a barrier, exit or
// branch, and how many registers its first destination really writes.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "isa/arch.h"

namespace sassim::isa {

// Functional-unit class that executes an instruction (the pipe it is dispatched to).
enum class UnitClass : std::uint8_t {
  kIntAlu,      // integer and logic ALU (IADD3, LOP3, ISETP, SHF, ...)
  kIntMad,      // integer multiply-add (IMAD, XMAD)
  kFp32,        // FP32 FMA pipe (FADD, FFMA, FMUL, FSETP, ...)
  kFp64,        // FP64 pipe (DADD, DFMA, DMUL, ...)
  kFp16,        // packed half pipe (HADD2, HFMA2, ...)
  kSfu,         // multi-function unit (MUFU.*)
  kConversion,  // conversions (F2F, F2I, I2F, F2FP, ...)
  kTensor,      // tensor core (HMMA, IMMA, DMMA, BMMA, HGMMA, ...)
  kMemory,      // load/store pipe (LDG, STG, LDS, LDSM, LDGSTS, ATOM, ...)
  kBranch,      // control flow (BRA, CALL, RET, BSSY, BSYNC, EXIT, BAR, ...)
  kUniform,     // uniform datapath (UIADD3, UMOV, ULDC, S2UR, ...)
  kMisc,        // everything else issued without a data pipe (NOP, S2R, CS2R, P2R, SHFL, ...)
};
inline constexpr std::size_t kNumUnitClasses = 12;
std::string_view unit_class_name(UnitClass unit);

enum class MemSpace : std::uint8_t {
  kNone,
  kGlobal,
  kLocal,
  kShared,
  kConstant,
  kGeneric,  // LD/ST/ATOM: resolved by address against the shared and local windows
  kTexture,
};
std::string_view mem_space_name(MemSpace space);

enum class MemKind : std::uint8_t {
  kNone,
  kLoad,
  kStore,
  kAtomic,     // read-modify-write returning a value (ATOM, ATOMS, ATOMG)
  kReduction,  // read-modify-write without a return value (RED)
  kAsyncCopy,  // global to shared without registers (LDGSTS)
};

enum class ControlKind : std::uint8_t {
  kNone,
  kExit,           // EXIT
  kBarrierSync,    // BAR.SYNC / BAR (waits for the CTA)
  kBarrierArrive,  // BAR.ARV (arrives without waiting)
  kBranch,         // BRA, BRX, JMP, CALL, RET, ...
  kConvergence,    // BSSY, BSYNC, SSY, SYNC, BMOV
  kWarpSync,       // WARPSYNC (its own cost: sim/control_flow.h)
  kMemoryBarrier,  // MEMBAR, FENCE, ERRBAR, CCTL
  kDependency,     // DEPBAR, LDGDEPBAR (asynchronous-copy group bookkeeping)
  kWarpgroupWait,  // WARPGROUP.DEPBAR: waits for the warpgroup's matrix operations
  kClusterArrive,  // UCGABAR_ARV: arrives at the cluster barrier (barrier.cluster.arrive)
  kClusterWait,    // UCGABAR_WAIT: waits for the cluster barrier (barrier.cluster.wait)
};

// Operand (A and B) element type of a matrix instruction.
enum class MmaType : std::uint8_t { kNone, kF16, kBf16, kTf32, kFp8, kInt8, kInt4, kFp64, kBinary };
// Accumulator (C and D) element type of a matrix instruction.
enum class MmaAccum : std::uint8_t { kNone, kF16, kF32, kS32, kF64 };
std::string_view mma_type_name(MmaType type);     // "f16", "bf16", "tf32", "fp8", "int8", ...
std::string_view mma_accum_name(MmaAccum accum);  // "f16", "f32", "s32", "f64"

// What the tensor-core timing needs of a matrix instruction: its logical shape
// (m, n, k of one warp, or of a warpgroup for the GMMA forms; 0 when the shape is
// not spelled), operand and accumulator types and whether it is a sparse (.SP) form.
// All zero (type kNone) for other instructions.
struct MatrixShape {
  std::uint16_t m = 0, n = 0, k = 0;
  MmaType type = MmaType::kNone;
  MmaAccum accum = MmaAccum::kNone;
  bool sparse = false;
  bool warpgroup = false;  // HGMMA, IGMMA, QGMMA, BGMMA: issued by a 128-thread warpgroup
  bool is_matrix() const { return type != MmaType::kNone; }
  friend bool operator==(const MatrixShape&, const MatrixShape&) = default;
};

// Hopper asynchronous data movement the SM hands to its TMA engine and mbarriers
// (sim/sm_tma.cc): bulk / tensor copies and the SYNCS mbarrier operations.
enum class AsyncOp : std::uint8_t {
  kNone,
  kTmaLoad,       // UTMALDG, UBLKCP.S.G (global -> shared)
  kTmaStore,      // UTMASTG, UBLKCP.G.S (shared -> global)
  kTmaReduce,     // UTMAREDG, UBLKRED (shared -> global, read-modify-write at the L2)
  kBulkCommit,    // UTMACMDFLUSH (cp.async.bulk.commit_group)
  kTmaPrefetch,   // UTMAPF, UBLKPF (into the L2)
  kMbarInit,      // SYNCS.EXCH (mbarrier.init)
  kMbarArrive,    // SYNCS.ARRIVE(S) without transactions (.A1T0)
  kMbarArriveTx,  // SYNCS.ARRIVE(S).TRANS64: arrive with expect-tx
  kMbarWait,      // SYNCS.PHASECHK (try_wait / test_wait)
  // UBLKCP.S.S / UBLKRED.S.S: the issuing CTA's shared memory -> another CTA's of the
  // cluster (cp[.reduce].async.bulk.shared::cluster.shared::cta, sim/cluster_multicast.cc).
  kClusterCopy,
  kClusterReduce,
};

// Where a global load that the L1 caches puts its line in the L1's replacement order,
// from its cache operator: .EF (ld.global.cs, L1::evict_first) is the next victim of its
// set, .EL (L1::evict_last) is evicted only when every way of the set is .EL, .LU
// (ld.global.lu, last use) reads a hit and drops it and does not allocate on a miss, .NA
// (L1::no_allocate) hits but does not allocate.
enum class L1Policy : std::uint8_t { kNormal, kEvictFirst, kEvictLast, kLastUse, kNoAllocate };

// One opcode of an instruction stream, decoded once from its text ("LDG.E.128.SYS").
struct DecodedOpcode {
  std::uint16_t id = 0;  // index of the base mnemonic in its architecture's table
  UnitClass unit = UnitClass::kMisc;
  MemSpace space = MemSpace::kNone;
  MemKind mem = MemKind::kNone;
  ControlKind control = ControlKind::kNone;
  std::uint8_t access_bytes = 0;  // bytes per thread implied by modifiers (.128 -> 16), 0 = none
  std::uint8_t dst_regs = 1;      // registers written by the first recorded destination
  // A global load whose cache operator keeps it out of the L1 (served by the L2): the
  // coherent scopes .STRONG.GPU / .STRONG.SYS (ld.cg, ld.cv, ld.relaxed.gpu, volatile)
  // and the older .CG / .CV modifiers; .STRONG.SM / .STRONG.CTA (ld.ca) stay in the L1.
  bool l1_bypass = false;
  L1Policy l1_policy = L1Policy::kNormal;
  std::uint8_t flop_kind = 0;          // isa::FlopKind (isa/flops.h) of its floating-point work
  std::uint16_t flops_per_thread = 0;  // floating-point operations per active thread
  MatrixShape matrix;                  // shape and types of matrix instructions
  // BAR: barrier id (0-15) and thread count (0 = all threads of the CTA), from
  // numeric modifiers when the opcode text has them ("BAR.SYNC.1.64").
  std::uint8_t barrier_id = 0;
  std::uint16_t barrier_threads = 0;
  AsyncOp async = AsyncOp::kNone;
  // MEMBAR at GPU or system scope (.GPU, .SYS, or no scope named): it waits until the
  // L2 has acknowledged the warp's earlier writes. MEMBAR.CTA orders them within the SM.
  bool fence_beyond_cta = false;
};

// The opcode table of one architecture. Tables are immutable and shared.
class OpcodeTable {
 public:
  static const OpcodeTable& get(Arch arch);

  Arch arch() const { return arch_; }
  // Decodes an opcode with its modifiers; nullopt when the base mnemonic is not an
  // opcode of this architecture.
  std::optional<DecodedOpcode> decode(std::string_view opcode_with_modifiers) const;
  // Base mnemonic of an id returned by decode().
  std::string_view mnemonic(std::uint16_t id) const;
  std::size_t size() const;

  struct Row;  // defined in the implementation

 private:
  OpcodeTable(Arch arch, const Row* rows, std::size_t count)
      : arch_(arch), rows_(rows), count_(count) {}
  Arch arch_;
  const Row* rows_;
  std::size_t count_;
};

}  // namespace sassim::isa
