// Load/store, atomic, cache-control, texture, surface and tensor-memory-access opcodes.
// Sources as in opcode_rows_compute.cc.
#include "isa/opcode_rows.h"

namespace sassim::isa {
namespace {

using S = MemSpace;
using K = MemKind;
using C = ControlKind;
using D = DstRule;

constexpr OpcodeRow mem(std::string_view name, MemSpace space, MemKind kind, DstRule dst,
                        ArchMask archs, ControlKind control = C::kNone) {
  return {name, UnitClass::kMemory, space, kind, control, dst, archs};
}

constexpr OpcodeRow kRows[] = {
    // Generic, global, local, shared and constant memory.
    mem("LD", S::kGeneric, K::kLoad, D::kMemVector, kAllGens),
    mem("LDC", S::kConstant, K::kLoad, D::kMemVector, kAllGens),
    mem("LDG", S::kGlobal, K::kLoad, D::kMemVector, kAllGens),
    mem("LDGMC", S::kGlobal, K::kLoad, D::kMemVector, kHopper),
    mem("LDL", S::kLocal, K::kLoad, D::kMemVector, kAllGens),
    mem("LDS", S::kShared, K::kLoad, D::kMemVector, kAllGens),
    mem("LDSM", S::kShared, K::kLoad, D::kLdsm, kTuringOn),
    mem("ST", S::kGeneric, K::kStore, D::kOne, kAllGens),
    mem("STG", S::kGlobal, K::kStore, D::kOne, kAllGens),
    mem("STL", S::kLocal, K::kStore, D::kOne, kAllGens),
    mem("STS", S::kShared, K::kStore, D::kOne, kAllGens),
    mem("STSM", S::kShared, K::kStore, D::kOne, kHopper),
    mem("STAS", S::kShared, K::kStore, D::kOne, kHopper),  // distributed shared memory
    // Atomics and reductions. RED stays on sm_90 (generic-address reductions), where
    // global ones disassemble as REDG.
    mem("ATOM", S::kGeneric, K::kAtomic, D::kMemVector, kAllGens),
    mem("ATOMG", S::kGlobal, K::kAtomic, D::kMemVector, kVoltaOn),
    mem("ATOMS", S::kShared, K::kAtomic, D::kMemVector, kAllGens),
    mem("RED", S::kGlobal, K::kReduction, D::kOne, kAllGens),
    mem("REDAS", S::kShared, K::kReduction, D::kOne, kHopper),
    mem("REDG", S::kGlobal, K::kReduction, D::kOne, kHopper),
    // Asynchronous copies and their bookkeeping in shared-memory barriers.
    mem("LDGSTS", S::kGlobal, K::kAsyncCopy, D::kOne, kAmpereOn),
    mem("ARRIVES", S::kShared, K::kAtomic, D::kOne, kAmpereOn, C::kDependency),
    mem("SYNCS", S::kShared, K::kAtomic, D::kOne, kHopper),
    // Cache control and memory ordering.
    mem("CCTL", S::kNone, K::kNone, D::kOne, kAllGens, C::kMemoryBarrier),
    mem("CCTLL", S::kNone, K::kNone, D::kOne, kAllGens, C::kMemoryBarrier),
    mem("CCTLT", S::kNone, K::kNone, D::kOne, kAllGens, C::kMemoryBarrier),
    mem("CGAERRBAR", S::kNone, K::kNone, D::kOne, kHopper, C::kMemoryBarrier),
    mem("ERRBAR", S::kNone, K::kNone, D::kOne, kVoltaOn, C::kMemoryBarrier),
    mem("FENCE", S::kNone, K::kNone, D::kOne, kHopper, C::kMemoryBarrier),
    mem("MEMBAR", S::kNone, K::kNone, D::kOne, kAllGens, C::kMemoryBarrier),
    // Texture (TMML and TXQ query levels and headers, no texel data).
    mem("TEX", S::kTexture, K::kLoad, D::kOne, kAllGens),
    mem("TEXS", S::kTexture, K::kLoad, D::kOne, kPascal),
    mem("TLD", S::kTexture, K::kLoad, D::kOne, kAllGens),
    mem("TLD4", S::kTexture, K::kLoad, D::kOne, kAllGens),
    mem("TLD4S", S::kTexture, K::kLoad, D::kOne, kPascal),
    mem("TLDS", S::kTexture, K::kLoad, D::kOne, kPascal),
    mem("TMML", S::kTexture, K::kNone, D::kOne, kAllGens),
    mem("TXD", S::kTexture, K::kLoad, D::kOne, kAllGens),
    mem("TXQ", S::kTexture, K::kNone, D::kOne, kAllGens),
    // Surface memory (served by the texture path).
    mem("SUATOM", S::kTexture, K::kAtomic, D::kOne, kAllGens),
    mem("SULD", S::kTexture, K::kLoad, D::kOne, kAllGens),
    mem("SURED", S::kTexture, K::kReduction, D::kOne, kAllGens),
    mem("SUST", S::kTexture, K::kStore, D::kOne, kAllGens),
    // Hopper tensor memory access (TMA) and bulk copies, global <-> shared.
    mem("UBLKCP", S::kGlobal, K::kAsyncCopy, D::kOne, kHopper),
    mem("UBLKPF", S::kGlobal, K::kNone, D::kOne, kHopper),
    mem("UBLKRED", S::kGlobal, K::kReduction, D::kOne, kHopper),
    mem("UTMACCTL", S::kNone, K::kNone, D::kOne, kHopper, C::kMemoryBarrier),
    mem("UTMACMDFLUSH", S::kNone, K::kNone, D::kOne, kHopper),
    mem("UTMALDG", S::kGlobal, K::kAsyncCopy, D::kOne, kHopper),
    mem("UTMAPF", S::kGlobal, K::kNone, D::kOne, kHopper),
    mem("UTMAREDG", S::kGlobal, K::kReduction, D::kOne, kHopper),
    mem("UTMASTG", S::kGlobal, K::kStore, D::kOne, kHopper),
};

}  // namespace

std::span<const OpcodeRow> memory_opcode_rows() {
  return kRows;
}

}  // namespace sassim::isa
