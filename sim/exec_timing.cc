#include "sim/exec_timing.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "configs/combination_checks.h"
#include "ground/error.h"

namespace sassim::sim {
namespace {

const config::ExecUnitConfig& unit_config(const config::ExecUnits& units, isa::UnitClass unit) {
  using isa::UnitClass;
  switch (unit) {
    case UnitClass::kIntAlu:
      return units.int_alu();
    case UnitClass::kIntMad:
      return units.int_mad();
    case UnitClass::kFp32:
      return units.fp32();
    case UnitClass::kFp64:
      return units.fp64();
    case UnitClass::kFp16:
      return units.fp16();
    case UnitClass::kSfu:
      return units.sfu();
    case UnitClass::kConversion:
      return units.conversion();
    case UnitClass::kTensor:
      return units.tensor();
    case UnitClass::kMemory:
      return units.memory();
    case UnitClass::kBranch:
      return units.branch();
    case UnitClass::kUniform:
      return units.uniform();
    case UnitClass::kMisc:
      return units.misc();
  }
  return units.misc();
}

}  // namespace

namespace {

std::optional<std::uint16_t> find_mnemonic(const isa::OpcodeTable& table, std::string_view name) {
  for (std::uint16_t id = 0; id < table.size(); ++id) {
    if (table.mnemonic(id) == name) return id;
  }
  return std::nullopt;
}

// The cycles of a tensor_ops entry: set and within the field's range.
std::uint32_t checked_cycles(std::uint32_t value, bool has, std::string_view field,
                             std::uint32_t max) {
  if (!has || value == 0 || value > max) {
    throw Error(fmt::format("{} = {}: expected 1 to {} core cycles", field,
                            has ? std::to_string(value) : std::string("(unset)"), max));
  }
  return value;
}

}  // namespace

std::uint32_t ExecTiming::TensorForm::scaled(std::uint32_t floor, double per_n, std::uint16_t n) {
  const double cycles = std::ceil(per_n * n);
  return std::max(floor, static_cast<std::uint32_t>(cycles));
}

void ExecTiming::add_tensor_forms(const config::SmConfig& sm, const isa::OpcodeTable& table,
                                  isa::Arch config_arch) {
  for (int i = 0; i < sm.tensor_ops_size(); ++i) {
    const config::TensorTiming& entry = sm.tensor_ops(i);
    const std::string path = fmt::format("sm.tensor_ops[{}]", i);
    if (auto problem = config::tensor_op_problem(entry, i, config_arch)) throw Error(*problem);
    const std::uint32_t latency = checked_cycles(entry.latency_cycles(), entry.has_latency_cycles(),
                                                 path + ".latency_cycles", 10000);
    const std::uint32_t interval =
        checked_cycles(entry.initiation_interval_cycles(), entry.has_initiation_interval_cycles(),
                       path + ".initiation_interval_cycles", 1024);
    const bool per_n =
        entry.has_latency_cycles_per_n() || entry.has_initiation_interval_cycles_per_n();
    // The same form in the trace's table (absent: a trace of another generation).
    const std::optional<isa::DecodedOpcode> op = table.decode(entry.opcode());
    if (!op) continue;
    TensorForm resolved{op->id,
                        op->matrix,
                        latency,
                        interval,
                        entry.latency_cycles_per_n(),
                        entry.initiation_interval_cycles_per_n()};
    if (per_n) resolved.shape.n = 0;
    auto same = std::find_if(tensor_forms_.begin(), tensor_forms_.end(), [&](const TensorForm& f) {
      return f.id == resolved.id && f.shape == resolved.shape;
    });
    if (same != tensor_forms_.end()) {
      *same = resolved;
    } else {
      tensor_forms_.push_back(resolved);
    }
  }
}

ExecTiming::ExecTiming(const config::SmConfig& sm, isa::Arch arch, isa::Arch config_arch) {
  for (std::size_t i = 0; i < isa::kNumUnitClasses; ++i) {
    const auto& unit = unit_config(sm.units(), static_cast<isa::UnitClass>(i));
    class_latency_[i] = unit.latency_cycles();
    class_interval_[i] = unit.initiation_interval_cycles();
  }
  const isa::OpcodeTable& table = isa::OpcodeTable::get(arch);
  latency_by_id_.assign(table.size(), 0);
  waits_async_.assign(table.size(), false);
  commits_async_.assign(table.size(), false);
  invalidates_l1_.assign(table.size(), false);
  for (std::uint16_t id = 0; id < table.size(); ++id) {
    waits_async_[id] = table.mnemonic(id) == "DEPBAR";
    commits_async_[id] = table.mnemonic(id) == "LDGDEPBAR";
    invalidates_l1_[id] = table.mnemonic(id) == "CCTL";
  }
  for (const auto& [mnemonic, cycles] : sm.opcode_latency_cycles()) {
    if (cycles == 0) {
      throw Error(
          fmt::format("sm.opcode_latency_cycles.{} = 0: expected at least 1 cycle", mnemonic));
    }
    if (auto id = find_mnemonic(table, mnemonic)) {
      latency_by_id_[*id] = cycles;
    } else if (!find_mnemonic(isa::OpcodeTable::get(config_arch), mnemonic)) {
      throw Error(fmt::format("sm.opcode_latency_cycles: '{}' is not an opcode of {}", mnemonic,
                              isa::arch_name(config_arch)));
    }
  }
  add_tensor_forms(sm, table, config_arch);
}

}  // namespace sassim::sim
