#include "sim/exec_timing.h"

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

ExecTiming::ExecTiming(const config::SmConfig& sm, isa::Arch arch) {
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
    bool found = false;
    for (std::uint16_t id = 0; id < table.size(); ++id) {
      if (table.mnemonic(id) == mnemonic) {
        latency_by_id_[id] = cycles;
        found = true;
        break;
      }
    }
    if (!found) {
      throw Error(fmt::format("sm.opcode_latency_cycles: '{}' is not an opcode of {}", mnemonic,
                              isa::arch_name(arch)));
    }
    if (cycles == 0) {
      throw Error(
          fmt::format("sm.opcode_latency_cycles.{} = 0: expected at least 1 cycle", mnemonic));
    }
  }
}

}  // namespace sassim::sim
