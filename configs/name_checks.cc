// check_names(): every name-valued field against the list its registry is built from, and
// the tensor forms against the architecture's opcode table.
#include <algorithm>
#include <string_view>
#include <vector>

#include "configs/choices.h"
#include "configs/combination_checks.h"
#include "isa/arch.h"

namespace sassim::config {
namespace {

void check(std::string_view path, bool present, std::string_view value,
           std::span<const std::string_view> names, std::vector<std::string>& problems) {
  if (!present) return;
  if (auto problem = choice_problem(path, value, names)) problems.push_back(std::move(*problem));
}

}  // namespace

void check_names(const GpuConfig& config, std::vector<std::string>& problems) {
  std::vector<std::string_view> archs;
  for (isa::Arch arch : isa::kAllArchs) archs.push_back(isa::arch_name(arch));
  std::vector<std::string_view> dram_types;
  for (const DramType& type : kDramTypes) dram_types.push_back(type.name);

  // Fields with a default always hold a value; `arch` and `dram.type` need one set.
  check("arch", config.has_arch(), config.arch(), archs, problems);
  check("sm.scheduler.policy", true, config.sm().scheduler().policy(), kSchedulerPolicies,
        problems);
  check("l2.address_hash", true, config.l2().address_hash(), kAddressHashes, problems);
  check("l2.set_index", true, config.l2().set_index(), kL2SetIndexes, problems);
  check("dram.type", config.dram().has_type(), config.dram().type(), dram_types, problems);
  check("dram.address_scheme", true, config.dram().address_scheme(), kDramAddressSchemes, problems);
  // Tensor forms are named by SASS opcodes, which the architecture's table decodes.
  const std::optional<isa::Arch> arch = isa::arch_from_name(config.arch());
  if (!arch || isa::arch_name(*arch) != config.arch()) return;
  for (int i = 0; i < config.sm().tensor_ops_size(); ++i) {
    if (auto problem = tensor_op_problem(config.sm().tensor_ops(i), i, *arch)) {
      problems.push_back(std::move(*problem));
    }
  }
}

}  // namespace sassim::config
