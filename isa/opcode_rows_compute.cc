// Arithmetic, conversion, movement, predicate and tensor-core opcodes.
//
// Sources: NVIDIA CUDA Binary Utilities, "Instruction Set Reference": the Maxwell/Pascal,
// Turing, Ampere/Ada and Hopper tables are covered completely (every opcode of each is a
// row of that architecture). Volta (sm_70) is the Turing table without Turing's
// additions (uniform datapath, LDSM, MOVM, IMMA/BMMA, BRXU/JMXU) plus CSMTEST. Rows not in
// NVIDIA's tables, from real SASS:
//  - Maxwell/Pascal opcodes the table omits but the encoding tables of Maxwell
//    disassemblers have: the 32I immediate forms, DEPBAR, LEPC, TMML, TXD, VABSDIFF(4),
//    VADD, VMAD, VMNMX, VSET(P), VSHL, VSHR, KIL, RTT and the CRS-stack operations;
//  - F2FP (F2FP.PACK_AB, sm_75+; in the bundled A100 traces), ARRIVES (sm_80+,
//    cp.async.mbarrier.arrive), QMMA (FP8 mma.sync, sm_89+) and RED on sm_90 (where
//    NVIDIA's table lists only REDG).
#include "isa/opcode_rows.h"

namespace sassim::isa {
namespace {

using U = UnitClass;
using D = DstRule;

constexpr OpcodeRow alu(std::string_view name, UnitClass unit, DstRule dst, ArchMask archs) {
  return {name, unit, MemSpace::kNone, MemKind::kNone, ControlKind::kNone, dst, archs};
}

constexpr OpcodeRow kRows[] = {
    // Floating point, FP32.
    alu("FADD", U::kFp32, D::kOne, kAllGens),
    alu("FADD32I", U::kFp32, D::kOne, kAllGens),
    alu("FCHK", U::kFp32, D::kOne, kAllGens),
    alu("FCMP", U::kFp32, D::kOne, kPascal),
    alu("FFMA", U::kFp32, D::kOne, kAllGens),
    alu("FFMA32I", U::kFp32, D::kOne, kAllGens),
    alu("FMNMX", U::kFp32, D::kOne, kAllGens),
    alu("FMUL", U::kFp32, D::kOne, kAllGens),
    alu("FMUL32I", U::kFp32, D::kOne, kAllGens),
    alu("FSEL", U::kFp32, D::kOne, kVoltaOn),
    alu("FSET", U::kFp32, D::kOne, kAllGens),
    alu("FSETP", U::kFp32, D::kOne, kAllGens),
    alu("FSWZADD", U::kFp32, D::kOne, kAllGens),
    alu("RRO", U::kFp32, D::kOne, kPascal),
    alu("MUFU", U::kSfu, D::kOne, kAllGens),
    // Floating point, FP16 (sm_53+, so every generation here).
    alu("HADD2", U::kFp16, D::kOne, kAllGens),
    alu("HADD2_32I", U::kFp16, D::kOne, kAllGens),
    alu("HFMA2", U::kFp16, D::kOne, kAllGens),
    alu("HFMA2_32I", U::kFp16, D::kOne, kAllGens),
    alu("HMNMX2", U::kFp16, D::kOne, kAmpereOn),
    alu("HMUL2", U::kFp16, D::kOne, kAllGens),
    alu("HMUL2_32I", U::kFp16, D::kOne, kAllGens),
    alu("HSET2", U::kFp16, D::kOne, kAllGens),
    alu("HSETP2", U::kFp16, D::kOne, kAllGens),
    alu("VHMNMX", U::kFp16, D::kOne, kHopper),
    // Floating point, FP64. DSETP writes predicates only (no register destination).
    alu("DADD", U::kFp64, D::kFp64, kAllGens),
    alu("DFMA", U::kFp64, D::kFp64, kAllGens),
    alu("DMNMX", U::kFp64, D::kFp64, kPascal),
    alu("DMUL", U::kFp64, D::kFp64, kAllGens),
    alu("DSET", U::kFp64, D::kOne, kPascal),  // writes a 32-bit boolean mask
    alu("DSETP", U::kFp64, D::kOne, kAllGens),
    // Tensor cores. IMMA/BMMA: sm_75 (int8 mma.sync needs sm_72+, not sm_70).
    alu("HMMA", U::kTensor, D::kHalfMma, kVoltaOn),
    alu("IMMA", U::kTensor, D::kIntMma, kTuringOn),
    alu("BMMA", U::kTensor, D::kIntMma, kTuringOn),
    alu("DMMA", U::kTensor, D::kDoubleMma, kAmpereOn),
    alu("QMMA", U::kTensor, D::kHalfMma, arch_from(Arch::kSm89)),  // not in NVIDIA's table
    alu("HGMMA", U::kTensor, D::kWarpgroupMma, kHopper),
    alu("IGMMA", U::kTensor, D::kWarpgroupMma, kHopper),
    alu("QGMMA", U::kTensor, D::kWarpgroupMma, kHopper),
    alu("BGMMA", U::kTensor, D::kWarpgroupMma, kHopper),
    // Integer. NVIDIA's Maxwell/Pascal table lists IMAD too (compilers prefer XMAD there).
    alu("BFE", U::kIntAlu, D::kOne, kPascal),
    alu("BFI", U::kIntAlu, D::kOne, kPascal),
    alu("BMSK", U::kIntAlu, D::kOne, kVoltaOn),
    alu("BREV", U::kIntAlu, D::kOne, kVoltaOn),
    alu("FLO", U::kIntAlu, D::kOne, kAllGens),
    alu("IABS", U::kIntAlu, D::kOne, kVoltaOn),
    alu("IADD", U::kIntAlu, D::kWide, kAllGens),
    alu("IADD3", U::kIntAlu, D::kWide, kAllGens),
    alu("IADD32I", U::kIntAlu, D::kOne, kAllGens),
    alu("ICMP", U::kIntAlu, D::kOne, kPascal),
    alu("IDP", U::kIntMad, D::kOne, arch_bit(Arch::kSm61) | kVoltaOn),  // dp4a: sm_61+
    alu("IDP4A", U::kIntMad, D::kOne, kVoltaOn),
    alu("IMAD", U::kIntMad, D::kWide, kAllGens),
    alu("IMADSP", U::kIntMad, D::kOne, kPascal),
    alu("IMNMX", U::kIntAlu, D::kWide, kAllGens),
    alu("IMUL", U::kIntMad, D::kWide, kAllGens),
    alu("IMUL32I", U::kIntMad, D::kOne, kAllGens),
    alu("ISCADD", U::kIntAlu, D::kOne, kAllGens),
    alu("ISCADD32I", U::kIntAlu, D::kOne, kAllGens),
    alu("ISET", U::kIntAlu, D::kOne, kPascal),
    alu("ISETP", U::kIntAlu, D::kOne, kAllGens),
    alu("LEA", U::kIntAlu, D::kOne, kAllGens),
    alu("LOP", U::kIntAlu, D::kOne, kAllGens),
    alu("LOP3", U::kIntAlu, D::kOne, kAllGens),
    alu("LOP32I", U::kIntAlu, D::kOne, kAllGens),
    alu("POPC", U::kIntAlu, D::kOne, kAllGens),
    alu("SHF", U::kIntAlu, D::kOne, kAllGens),
    alu("SHL", U::kIntAlu, D::kOne, kAllGens),
    alu("SHR", U::kIntAlu, D::kOne, kAllGens),
    alu("VABSDIFF", U::kIntAlu, D::kOne, kAllGens),
    alu("VABSDIFF4", U::kIntAlu, D::kOne, kAllGens),
    alu("VADD", U::kIntAlu, D::kOne, kPascal),
    // The IMAD pipe, not the ALU: ptxas 13.0's sm_90 listings in kernels/sass/sm_90 put 2
    // stall cycles between independent IMAD -> VIADD, VIADD -> IMAD and VIADD -> VIADD
    // pairs (as IMAD -> IMAD) but 1 between VIADD and IADD3 / LOP3 / ISETP either way
    // (docs/MODEL.md, "Functional units").
    alu("VIADD", U::kIntMad, D::kWide, kHopper),
    alu("VIADDMNMX", U::kIntAlu, D::kOne, kHopper),
    alu("VIMNMX", U::kIntAlu, D::kWide, kHopper),
    alu("VIMNMX3", U::kIntAlu, D::kOne, kHopper),
    alu("VMAD", U::kIntMad, D::kOne, kPascal),
    alu("VMNMX", U::kIntAlu, D::kOne, kPascal),
    alu("VSET", U::kIntAlu, D::kOne, kPascal),
    alu("VSETP", U::kIntAlu, D::kOne, kPascal),
    alu("VSHL", U::kIntAlu, D::kOne, kPascal),
    alu("VSHR", U::kIntAlu, D::kOne, kPascal),
    alu("XMAD", U::kIntMad, D::kOne, kPascal),
    // Conversion.
    alu("F2F", U::kConversion, D::kFp64Dst, kAllGens),
    alu("F2FP", U::kConversion, D::kOne, kTuringOn),  // not in NVIDIA's table
    alu("F2I", U::kConversion, D::kInt64Dst, kAllGens),
    alu("F2IP", U::kConversion, D::kOne, kAmpereOn),
    alu("FRND", U::kConversion, D::kFp64Dst, kVoltaOn),
    alu("I2F", U::kConversion, D::kFp64Dst, kAllGens),
    alu("I2FP", U::kConversion, D::kOne, kAmpereOn),
    alu("I2I", U::kConversion, D::kInt64Dst, kAllGens),
    alu("I2IP", U::kConversion, D::kOne, kVoltaOn),
    // Movement.
    alu("MOV", U::kIntAlu, D::kWide, kAllGens),
    alu("MOV32I", U::kIntAlu, D::kOne, kAllGens),
    alu("MOVM", U::kMisc, D::kOne, kTuringOn),
    alu("PRMT", U::kIntAlu, D::kOne, kAllGens),
    alu("SEL", U::kIntAlu, D::kOne, kAllGens),
    alu("SGXT", U::kIntAlu, D::kOne, kVoltaOn),
    alu("SHFL", U::kMisc, D::kOne, kAllGens),
    // Predicate (and Pascal's condition-code) instructions.
    alu("CSET", U::kIntAlu, D::kOne, kPascal),
    alu("CSETP", U::kIntAlu, D::kOne, kPascal),
    alu("P2R", U::kMisc, D::kOne, kAllGens),
    alu("PLOP3", U::kIntAlu, D::kOne, kVoltaOn),
    alu("PSET", U::kIntAlu, D::kOne, kPascal),
    alu("PSETP", U::kIntAlu, D::kOne, kAllGens),
    alu("R2P", U::kMisc, D::kOne, kAllGens),
};

}  // namespace

std::span<const OpcodeRow> compute_opcode_rows() {
  return kRows;
}

}  // namespace sassim::isa
