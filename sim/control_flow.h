#pragma once
// Control flow as the SM's timing sees it: where the next sequential instruction of
// an architecture is (to tell taken branches from fall-through), what a redirect
// and a reconvergence instruction cost, and where a kernel's code lies in the
// instruction caches.
#include <cstdint>
#include <string_view>

#include "configs/sassim_config.pb.h"
#include "isa/arch.h"
#include "isa/opcode.h"

namespace sassim::sim {

// The PC of the instruction after `pc` in straight-line code: 16-byte instructions
// from Volta on; 8-byte instructions on Pascal, where every 32-byte bundle starts
// with a scheduling control word that is not an instruction.
inline std::uint64_t next_sequential_pc(isa::Arch arch, std::uint64_t pc) {
  if (arch != isa::Arch::kSm60 && arch != isa::Arch::kSm61) return pc + 16;
  const std::uint64_t next = pc + 8;
  return next % 32 == 0 ? next + 8 : next;
}

// Where a kernel's code lies in the instruction caches: its PCs (offsets from the
// kernel's entry) above a base derived from its name (FNV-1a), so launches of one
// kernel share lines and different kernels do not.
std::uint64_t code_base(std::string_view kernel_name);

class ControlFlowCosts {
 public:
  explicit ControlFlowCosts(const config::SmConfig& sm);
  std::uint32_t branch_resolve_cycles() const { return branch_resolve_; }
  // Cycles from the issue of a reconvergence instruction to the warp's next issue
  // (at least 1: the next cycle).
  std::uint32_t issue_delay(const isa::DecodedOpcode& op) const;

 private:
  std::uint32_t branch_resolve_, convergence_, warpsync_;
};

}  // namespace sassim::sim
