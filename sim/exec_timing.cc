#include "sim/exec_timing.h"

#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "isa/error.h"

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

}  // namespace

ExecTiming::ExecTiming(const config::SmConfig& sm, isa::Arch arch, isa::Arch config_arch) {
  for (std::size_t i = 0; i < isa::kNumUnitClasses; ++i) {
    const auto& unit = unit_config(sm.units(), static_cast<isa::UnitClass>(i));
    class_latency_[i] = unit.latency_cycles();
    class_interval_[i] = unit.initiation_interval_cycles();
  }
  const isa::OpcodeTable& table = isa::OpcodeTable::get(arch);
  latency_by_id_.assign(table.size(), 0);
  waits_async_.assign(table.size(), false);
  for (std::uint16_t id = 0; id < table.size(); ++id)
    waits_async_[id] = table.mnemonic(id) == "DEPBAR";
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
}

}  // namespace sassim::sim
