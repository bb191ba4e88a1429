#include "sim/control_bits.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "ground/error.h"
#include "isa/opcode.h"
#include "isa/warpgroup.h"

namespace sassim::sim {
namespace {

ControlEntry entry_of(const traces::sass::Instruction& in) {
  using traces::sass::OperandKind;
  ControlEntry e;
  e.stall = std::max<std::uint8_t>(in.control.stall, 1);
  e.yield = in.control.yield;
  e.write_sb =
      in.control.write_barrier < kNumScoreboards ? in.control.write_barrier : kNoScoreboard;
  e.read_sb = in.control.read_barrier < kNumScoreboards ? in.control.read_barrier : kNoScoreboard;
  e.wait_mask = in.control.wait_mask;
  if (in.opcode == "DEPBAR" && in.operands.size() == 2 &&
      in.operands[0].kind == OperandKind::kScoreboard &&
      in.operands[1].kind == OperandKind::kImmInt) {
    e.depbar_sb = static_cast<std::uint8_t>(in.operands[0].reg);
    e.depbar_max = static_cast<std::uint8_t>(std::clamp<std::int64_t>(in.operands[1].imm, 0, 63));
  }
  std::vector<std::string_view> texts;
  for (const traces::sass::Operand& o : in.operands) texts.emplace_back(o.text);
  if (in.opcode == "HGMMA" || in.opcode == "IGMMA" || in.opcode == "QGMMA" ||
      in.opcode == "BGMMA") {
    const auto wgmma = isa::warpgroup_mma_operands(texts);
    e.wgmma_commit = wgmma && wgmma->commits_group;
  }
  if (in.opcode == "WARPGROUP") {
    if (const auto n = isa::warpgroup_depbar_pending(texts))
      e.wgmma_pending = static_cast<std::uint8_t>(std::min<std::uint32_t>(*n, 0xfe));
  }
  e.async_group = in.opcode == "LDGDEPBAR";
  e.bulk_commit = in.opcode == "UTMACMDFLUSH";
  for (std::size_t k = 0; k < in.operands.size() && k < kReuseSlots; ++k) {
    const traces::sass::Operand& o = in.operands[k];
    if (o.kind != OperandKind::kReg || o.reg >= traces::sass::kRZ) continue;
    e.operands.reg[k] = static_cast<std::uint8_t>(o.reg);
    if (o.reuse) e.operands.reuse_mask |= static_cast<std::uint8_t>(1U << k);
  }
  return e;
}

}  // namespace

ControlBitsTable::ControlBitsTable(const traces::sass::Listing& listing,
                                   const traces::sass::Function& function, isa::Arch arch)
    : listing_(listing), function_(function), arch_(arch) {}

void ControlBitsTable::extend(const traces::KernelTrace& trace) {
  const traces::StaticInstTable& statics = trace.statics();
  const isa::OpcodeTable& opcodes = isa::OpcodeTable::get(arch_);
  for (auto i = static_cast<std::uint32_t>(entries_.size()); i < statics.size(); ++i) {
    const isa::StaticInst& si = statics[i];
    const traces::sass::Instruction* in = function_.at_pc(si.pc);
    const std::string_view traced = opcodes.mnemonic(si.op.id);
    if (in == nullptr) {
      throw Error(fmt::format(
          "{}:{}: {} at PC {:#06x} of kernel {}: expected an instruction at that PC in the "
          "listing of {} ({}:{})",
          trace.info().source, trace.static_line(i), traced, si.pc, function_.name, function_.name,
          listing_.origin, function_.first_line));
    }
    if (in->opcode != traced) {
      throw Error(
          fmt::format("{}:{}: {} at PC {:#06x} of kernel {}, but {}:{} has {} there: expected the "
                      "listing of the traced binary",
                      trace.info().source, trace.static_line(i), traced, si.pc, function_.name,
                      listing_.origin, in->line, in->mnemonic));
    }
    entries_.push_back(entry_of(*in));
  }
}

std::unique_ptr<ControlBitsTable> make_control_bits(
    const std::vector<traces::sass::Listing>& listings, const traces::KernelInfo& kernel) {
  for (const traces::sass::Listing& listing : listings) {
    if (const traces::sass::Function* f = listing.find(kernel.name)) {
      return std::make_unique<ControlBitsTable>(listing, *f, kernel.arch);
    }
  }
  return nullptr;
}

}  // namespace sassim::sim
