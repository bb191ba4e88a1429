#include "sim/control_flow.h"

#include <algorithm>

namespace sassim::sim {

std::uint64_t code_base(std::string_view kernel_name) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : kernel_name) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  // Kernels are far below 2^32 bytes of code: keep the low 32 bits for the PC.
  return hash << 32;
}

ControlFlowCosts::ControlFlowCosts(const config::SmConfig& sm)
    : branch_resolve_(sm.control_flow().branch_resolve_cycles()),
      convergence_(sm.control_flow().convergence_cycles()),
      warpsync_(sm.control_flow().warpsync_cycles()) {}

std::uint32_t ControlFlowCosts::issue_delay(const isa::DecodedOpcode& op) const {
  switch (op.control) {
    case isa::ControlKind::kConvergence:
      return std::max<std::uint32_t>(convergence_, 1);
    case isa::ControlKind::kWarpSync:
      return std::max<std::uint32_t>(warpsync_, 1);
    default:
      return 1;
  }
}

}  // namespace sassim::sim
