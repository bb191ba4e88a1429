// Control-flow, barrier, uniform-datapath and miscellaneous opcodes. Sources as in
// opcode_rows_compute.cc. The Pascal-only control opcodes (SSY, PBK, BRK, ...) drive the
// pre-Volta convergence stack; Volta replaced them with BSSY/BSYNC/BREAK/BMOV.
#include "isa/opcode_rows.h"

namespace sassim::isa {
namespace {

using U = UnitClass;
using C = ControlKind;

constexpr OpcodeRow ctl(std::string_view name, ControlKind control, ArchMask archs) {
  return {name, U::kBranch, MemSpace::kNone, MemKind::kNone, control, DstRule::kOne, archs};
}
constexpr OpcodeRow op(std::string_view name, UnitClass unit, ArchMask archs,
                       ControlKind control = C::kNone, DstRule dst = DstRule::kOne) {
  return {name, unit, MemSpace::kNone, MemKind::kNone, control, dst, archs};
}

constexpr OpcodeRow kRows[] = {
    // Branches, calls and returns.
    ctl("BRA", C::kBranch, kAllGens),
    ctl("BRX", C::kBranch, kAllGens),
    ctl("BRXU", C::kBranch, kTuringOn),
    ctl("CAL", C::kBranch, kPascal),
    ctl("CALL", C::kBranch, kVoltaOn),
    ctl("JCAL", C::kBranch, kPascal),
    ctl("JMP", C::kBranch, kAllGens),
    ctl("JMX", C::kBranch, kAllGens),
    ctl("JMXU", C::kBranch, kTuringOn),
    ctl("LONGJMP", C::kBranch, kPascal),
    ctl("RET", C::kBranch, kAllGens),
    ctl("RTT", C::kBranch, kPascalToTuring),
    // Exit and thread kill.
    ctl("EXIT", C::kExit, kAllGens),
    ctl("KIL", C::kExit, kPascal),
    ctl("KILL", C::kExit, kVoltaOn),
    // Convergence: Volta+ convergence barriers and warp sync.
    ctl("BMOV", C::kConvergence, kVoltaOn),
    ctl("BREAK", C::kConvergence, kVoltaOn),
    ctl("BSSY", C::kConvergence, kVoltaOn),
    ctl("BSYNC", C::kConvergence, kVoltaOn),
    ctl("ENDCOLLECTIVE", C::kConvergence, kHopper),
    ctl("WARPSYNC", C::kWarpSync, kVoltaOn),
    // Convergence: the Pascal call/return/reconvergence (CRS) stack.
    ctl("BRK", C::kConvergence, kPascal),
    ctl("CONT", C::kConvergence, kPascal),
    ctl("GETCRSPTR", C::kConvergence, kPascal),
    ctl("PBK", C::kConvergence, kPascal),
    ctl("PCNT", C::kConvergence, kPascal),
    ctl("PEXIT", C::kConvergence, kPascal),
    ctl("PLONGJMP", C::kConvergence, kPascal),
    ctl("PRET", C::kConvergence, kPascal),
    ctl("RAM", C::kConvergence, kPascal),
    ctl("SAM", C::kConvergence, kPascal),
    ctl("SETCRSPTR", C::kConvergence, kPascal),
    ctl("SSY", C::kConvergence, kPascal),
    ctl("SYNC", C::kConvergence, kPascal),
    // CTA barrier: the control kind depends on the modifiers (see decode()).
    ctl("BAR", C::kBarrierSync, kAllGens),
    // Other control.
    ctl("ACQBULK", C::kDependency, kHopper),
    ctl("BPT", C::kNone, kAllGens),
    ctl("ELECT", C::kNone, kHopper),
    ctl("NANOSLEEP", C::kNone, kVoltaOn),
    ctl("PREEXIT", C::kNone, kHopper),
    ctl("RPCMOV", C::kNone, kVoltaOn),
    ctl("YIELD", C::kNone, kVoltaOn),
    // Dependency barriers (scoreboards, async-copy groups, warpgroup MMA).
    op("DEPBAR", U::kMisc, kAllGens, C::kDependency),
    op("LDGDEPBAR", U::kMisc, kAmpereOn, C::kDependency),
    op("WARPGROUP", U::kMisc, kHopper, C::kDependency),
    op("WARPGROUPSET", U::kMisc, kHopper),
    // Uniform datapath (Turing+). Uniform destinations are not R registers.
    op("R2UR", U::kUniform, kTuringOn),
    op("REDUX", U::kUniform, kAmpereOn),
    op("S2UR", U::kUniform, kTuringOn),
    op("UBMSK", U::kUniform, kTuringOn),
    op("UBREV", U::kUniform, kTuringOn),
    // Cluster barrier (PTX barrier.cluster.arrive / .wait), not a CTA barrier.
    op("UCGABAR_ARV", U::kUniform, kHopper, C::kClusterArrive),
    op("UCGABAR_WAIT", U::kUniform, kHopper, C::kClusterWait),
    op("UCLEA", U::kUniform, kTuringOn),
    op("UF2FP", U::kUniform, kAmpereOn),
    op("UFLO", U::kUniform, kTuringOn),
    op("UIADD3", U::kUniform, kTuringOn),
    op("UIMAD", U::kUniform, kTuringOn),
    op("UISETP", U::kUniform, kTuringOn),
    op("ULDC", U::kUniform, kTuringOn),
    op("ULEA", U::kUniform, kTuringOn),
    op("ULEPC", U::kUniform, kHopper),
    op("ULOP", U::kUniform, kTuringOn),
    op("ULOP3", U::kUniform, kTuringOn),
    op("ULOP32I", U::kUniform, kTuringOn),
    op("UMOV", U::kUniform, kTuringOn),
    op("UP2UR", U::kUniform, kTuringOn),
    op("UPLOP3", U::kUniform, kTuringOn),
    op("UPOPC", U::kUniform, kTuringOn),
    op("UPRMT", U::kUniform, kTuringOn),
    op("UPSETP", U::kUniform, kTuringOn),
    op("UR2UP", U::kUniform, kTuringOn),
    op("USEL", U::kUniform, kTuringOn),
    op("USETMAXREG", U::kUniform, kHopper),
    op("USGXT", U::kUniform, kTuringOn),
    op("USHF", U::kUniform, kTuringOn),
    op("USHL", U::kUniform, kTuringOn),
    op("USHR", U::kUniform, kTuringOn),
    op("VOTEU", U::kUniform, kTuringOn),
    // Miscellaneous.
    op("B2R", U::kMisc, kAllGens),
    op("CS2R", U::kMisc, kAllGens, C::kNone, DstRule::kCs2r),
    op("CSMTEST", U::kMisc, arch_bit(Arch::kSm70)),
    op("GETLMEMBASE", U::kMisc, kAllGens),
    op("LEPC", U::kMisc, kAllGens),
    op("MATCH", U::kMisc, kVoltaOn),
    op("NOP", U::kMisc, kAllGens),
    op("PMTRIG", U::kMisc, kVoltaOn),
    op("QSPC", U::kMisc, kVoltaOn),
    op("R2B", U::kMisc, kPascalToTuring),
    op("S2R", U::kMisc, kAllGens),
    op("SETCTAID", U::kMisc, kVoltaOn),
    op("SETLMEMBASE", U::kMisc, kAllGens),
    op("VOTE", U::kMisc, kAllGens),
};

}  // namespace

std::span<const OpcodeRow> control_opcode_rows() {
  return kRows;
}

}  // namespace sassim::isa
