// tensor_op_problem(): a sm.tensor_ops entry against the architecture's opcode table.
#include <fmt/format.h>

#include "configs/combination_checks.h"
#include "isa/opcode.h"

namespace sassim::config {

std::optional<std::string> tensor_op_problem(const TensorTiming& entry, int index, isa::Arch arch) {
  const std::string path = fmt::format("sm.tensor_ops[{}]", index);
  const std::optional<isa::DecodedOpcode> form = isa::OpcodeTable::get(arch).decode(entry.opcode());
  if (!form || !form->matrix.is_matrix() || form->matrix.m == 0) {
    return fmt::format(
        "{}.opcode: '{}' is not a matrix instruction of {} with a known shape (e.g. "
        "\"HMMA.16816.F32.BF16\", \"IMMA.16832.S8.S8\", \"DMMA.884\")",
        path, entry.opcode(), isa::arch_name(arch));
  }
  const bool per_n =
      entry.has_latency_cycles_per_n() || entry.has_initiation_interval_cycles_per_n();
  if (per_n && !form->matrix.warpgroup) {
    return fmt::format(
        "{}: latency_cycles_per_n / initiation_interval_cycles_per_n need a warpgroup form "
        "(HGMMA, IGMMA, QGMMA, BGMMA); '{}' is not one",
        path, entry.opcode());
  }
  return std::nullopt;
}

}  // namespace sassim::config
