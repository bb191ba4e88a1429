#include "isa/opcode.h"

#include "isa/flops.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>
#include <vector>

#include "isa/matrix.h"
#include "isa/opcode_modifiers.h"
#include "isa/opcode_rows.h"

namespace sassim::isa {
namespace {

// The rows of one architecture, sorted by mnemonic for binary search.
std::vector<OpcodeRow> rows_of(Arch arch) {
  std::vector<OpcodeRow> rows;
  for (auto group : {compute_opcode_rows(), memory_opcode_rows(), control_opcode_rows()}) {
    for (const OpcodeRow& row : group) {
      if ((row.archs & arch_bit(arch)) != 0) rows.push_back(row);
    }
  }
  std::sort(rows.begin(), rows.end(),
            [](const OpcodeRow& a, const OpcodeRow& b) { return a.name < b.name; });
  return rows;
}

// BAR's numeric modifiers: the first is the barrier id (0-15), the second the thread
// count (a multiple of 32, at most 1024). Decimal or 0x hexadecimal. False when one
// is out of range or there are more than two.
bool barrier_operands(const OpcodeText& text, DecodedOpcode& op) {
  unsigned numbers = 0;
  for (std::string_view m : text) {
    if (m.empty() || m.front() < '0' || m.front() > '9') continue;
    const bool hex = m.size() > 2 && m[0] == '0' && (m[1] == 'x' || m[1] == 'X');
    if (hex) m.remove_prefix(2);
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(m.data(), m.data() + m.size(), value, hex ? 16 : 10);
    if (ec != std::errc{} || end != m.data() + m.size()) return false;
    if (numbers == 0) {
      if (value > 15) return false;
      op.barrier_id = static_cast<std::uint8_t>(value);
    } else if (numbers == 1) {
      if (value == 0 || value % 32 != 0 || value > 1024) return false;
      op.barrier_threads = static_cast<std::uint16_t>(value);
    } else {
      return false;
    }
    ++numbers;
  }
  return true;
}

AsyncOp async_op_of(const OpcodeText& text) {
  const std::string_view base = text.base();
  if (base == "UTMALDG") return AsyncOp::kTmaLoad;
  if (base == "UTMASTG") return AsyncOp::kTmaStore;
  // UBLKCP.S.S / UBLKRED.S.S: shared memory to shared memory (of another CTA).
  const bool shared_to_shared = text.size() > 1 && text[0] == "S" && text[1] == "S";
  if (base == "UBLKRED" && shared_to_shared) return AsyncOp::kClusterReduce;
  if (base == "UBLKCP" && shared_to_shared) return AsyncOp::kClusterCopy;
  if (base == "UTMAREDG" || base == "UBLKRED") return AsyncOp::kTmaReduce;
  if (base == "UTMACMDFLUSH") return AsyncOp::kBulkCommit;
  if (base == "UTMAPF" || base == "UBLKPF") return AsyncOp::kTmaPrefetch;
  // UBLKCP.S.G copies global to shared, UBLKCP.G.S shared to global: the first of the
  // two space modifiers is the destination.
  if (base == "UBLKCP") {
    return text.size() > 0 && text[0] == "G" ? AsyncOp::kTmaStore : AsyncOp::kTmaLoad;
  }
  if (base != "SYNCS") return AsyncOp::kNone;
  if (text.has("EXCH")) return AsyncOp::kMbarInit;
  if (text.has("PHASECHK")) return AsyncOp::kMbarWait;
  if (text.has("ARRIVE") || text.has("ARRIVES")) {
    return text.has("TRANS64") && !text.has("A1T0") ? AsyncOp::kMbarArriveTx : AsyncOp::kMbarArrive;
  }
  return AsyncOp::kNone;
}

}  // namespace

std::string_view unit_class_name(UnitClass unit) {
  switch (unit) {
    case UnitClass::kIntAlu:
      return "int_alu";
    case UnitClass::kIntMad:
      return "int_mad";
    case UnitClass::kFp32:
      return "fp32";
    case UnitClass::kFp64:
      return "fp64";
    case UnitClass::kFp16:
      return "fp16";
    case UnitClass::kSfu:
      return "sfu";
    case UnitClass::kConversion:
      return "conversion";
    case UnitClass::kTensor:
      return "tensor";
    case UnitClass::kMemory:
      return "memory";
    case UnitClass::kBranch:
      return "branch";
    case UnitClass::kUniform:
      return "uniform";
    case UnitClass::kMisc:
      return "misc";
  }
  return "unknown";
}

std::string_view mma_type_name(MmaType type) {
  constexpr std::string_view kNames[] = {"none", "f16",  "bf16", "tf32",  "fp8",
                                         "int8", "int4", "fp64", "binary"};
  return kNames[static_cast<std::size_t>(type)];
}

std::string_view mma_accum_name(MmaAccum accum) {
  constexpr std::string_view kNames[] = {"none", "f16", "f32", "s32", "f64"};
  return kNames[static_cast<std::size_t>(accum)];
}

std::string_view mem_space_name(MemSpace space) {
  switch (space) {
    case MemSpace::kNone:
      return "none";
    case MemSpace::kGlobal:
      return "global";
    case MemSpace::kLocal:
      return "local";
    case MemSpace::kShared:
      return "shared";
    case MemSpace::kConstant:
      return "constant";
    case MemSpace::kGeneric:
      return "generic";
    case MemSpace::kTexture:
      return "texture";
  }
  return "unknown";
}

const OpcodeTable& OpcodeTable::get(Arch arch) {
  // Built once, immutable afterwards (function-local statics initialize thread-safely).
  static const std::array<std::vector<OpcodeRow>, std::size(kAllArchs)> rows = [] {
    std::array<std::vector<OpcodeRow>, std::size(kAllArchs)> all;
    for (Arch a : kAllArchs) all[static_cast<std::size_t>(a)] = rows_of(a);
    return all;
  }();
  static const std::array<OpcodeTable, std::size(kAllArchs)> tables = [] {
    auto make = [](Arch a) {
      const auto& r = rows[static_cast<std::size_t>(a)];
      return OpcodeTable(a, r.data(), r.size());
    };
    return std::array<OpcodeTable, std::size(kAllArchs)>{
        make(Arch::kSm60), make(Arch::kSm61), make(Arch::kSm70), make(Arch::kSm75),
        make(Arch::kSm80), make(Arch::kSm86), make(Arch::kSm89), make(Arch::kSm90)};
  }();
  return tables[static_cast<std::size_t>(arch)];
}

std::optional<DecodedOpcode> OpcodeTable::decode(std::string_view opcode_with_modifiers) const {
  std::optional<OpcodeText> text = OpcodeText::split(opcode_with_modifiers);
  if (!text) return std::nullopt;
  const Row* end = rows_ + count_;
  const Row* row = std::lower_bound(
      rows_, end, text->base(), [](const Row& r, std::string_view name) { return r.name < name; });
  if (row == end || row->name != text->base()) return std::nullopt;

  DecodedOpcode op;
  op.id = static_cast<std::uint16_t>(row - rows_);
  op.unit = row->unit;
  op.space = row->space;
  op.mem = row->mem;
  op.control = row->control;
  // BAR.ARV arrives without waiting; BAR, BAR.SYNC(.DEFER_BLOCKING), BAR.RED wait.
  if (row->name == "BAR" && text->has("ARV")) op.control = ControlKind::kBarrierArrive;
  // WARPGROUP.DEPBAR waits for wgmma groups; WARPGROUP.ARRIVE only orders register use.
  if (row->name == "WARPGROUP" && text->has("DEPBAR")) op.control = ControlKind::kWarpgroupWait;
  if (row->name == "BAR" && !barrier_operands(*text, op)) return std::nullopt;
  op.access_bytes = row->space == MemSpace::kNone ? 0 : memory_access_bytes(*text);
  op.dst_regs = destination_registers(row->dst, *text, op.access_bytes);
  const bool global_load = (row->space == MemSpace::kGlobal || row->space == MemSpace::kGeneric) &&
                           row->mem == MemKind::kLoad;
  op.l1_bypass = (global_load && ((text->has("STRONG") && (text->has("GPU") || text->has("SYS"))) ||
                                  text->has("CG") || text->has("CV"))) ||
                 (row->mem == MemKind::kAsyncCopy && text->has("BYPASS"));  // cp.async.cg
  if (global_load && !op.l1_bypass) {
    if (text->has("EF")) op.l1_policy = L1Policy::kEvictFirst;
    if (text->has("EL")) op.l1_policy = L1Policy::kEvictLast;
    if (text->has("LU")) op.l1_policy = L1Policy::kLastUse;
    if (text->has("NA")) op.l1_policy = L1Policy::kNoAllocate;
  }
  const FlopInfo flops = flops_of(*text);
  op.flop_kind = static_cast<std::uint8_t>(flops.kind);
  op.flops_per_thread = flops.per_thread;
  op.matrix = matrix_shape_of(*text);
  op.async = async_op_of(*text);
  op.fence_beyond_cta = row->name == "MEMBAR" && !text->has("CTA");
  return op;
}

std::string_view OpcodeTable::mnemonic(std::uint16_t id) const {
  return id < count_ ? rows_[id].name : std::string_view{};
}

std::size_t OpcodeTable::size() const {
  return count_;
}

}  // namespace sassim::isa
