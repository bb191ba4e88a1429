// Register-bank conflicts at issue (sim/register_file.h): how many cycles the operand
// reads of the instruction a warp issues delay its dispatch.
#include "sim/control_bits.h"
#include "sim/register_file.h"
#include "sim/sm.h"

namespace sassim::sim {

std::uint32_t Sm::operand_read_delay(Warp& w, const isa::WarpInst& wi, const isa::StaticInst& si) {
  const KernelContext& kernel = kernel_of(w);
  const RegisterReadTable* table = kernel.register_reads;
  if (table == nullptr) return 0;
  const std::uint32_t delay =
      kernel.control != nullptr
          ? table->extra_cycles(si, (*kernel.control)[wi.static_index].operands, w.reuse_cache)
          : table->extra_cycles(wi.static_index);
  if (delay != 0) ++counters_.register_bank_conflicts;
  return delay;
}

}  // namespace sassim::sim
