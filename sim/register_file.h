#pragma once
// Register-file banks and the operand reuse cache of a sub-core (`sm.register_file`).
// Register Rn lies in bank n mod B; each bank reads P registers per cycle. Reading an
// instruction's distinct source registers takes max over banks of ceil(reads / P)
// cycles; every cycle beyond the first delays its dispatch. Traces list only general
// registers as sources (RZ dropped), so uniform registers, predicates and constants
// never reach the banks. The cost without reuse is computed once per static
// instruction; with a SASS listing, a source that the warp's reuse cache holds is not
// read from the banks (decided per issue).
#include <cstdint>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "isa/instruction.h"
#include "sim/operand_reuse.h"
#include "traces/kernel_trace.h"

namespace sassim::sim {

// Bank geometry and the per-static-instruction read cost of one kernel launch.
class RegisterReadTable {
 public:
  explicit RegisterReadTable(const config::RegisterFileConfig& config);
  // True when `sm.register_file` models banks (banks > 0).
  static bool enabled(const config::SmConfig& sm) {
    return sm.has_register_file() && sm.register_file().banks() > 0;
  }
  // Computes the cost of the static instructions added since the last call.
  void extend(const traces::StaticInstTable& statics);
  // Cycles the instruction's dispatch is delayed without a reuse cache.
  std::uint32_t extra_cycles(std::uint32_t static_index) const { return extra_[static_index]; }
  // The same with the warp's reuse cache (control-bit mode): sources it holds in the
  // slot that names them are not read from the banks. Then sets the cache to what
  // this instruction's reuse flags keep.
  std::uint32_t extra_cycles(const isa::StaticInst& si, const OperandSlots& slots,
                             ReuseCache& cache) const;
  // Cycles beyond the first to read `regs` (count entries; duplicates read once).
  std::uint32_t extra_cycles(const std::uint16_t* regs, std::size_t count) const;

 private:
  std::uint32_t banks_, ports_;
  bool reuse_;
  std::vector<std::uint8_t> extra_;  // by static index
};

}  // namespace sassim::sim
