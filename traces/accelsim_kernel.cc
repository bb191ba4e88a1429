#include "traces/accelsim_kernel.h"

#include <fmt/format.h>

#include <cstdint>
#include <limits>

#include "ground/error.h"
#include "traces/tokens.h"
#include "traces/trace_error.h"

namespace sassim::traces {
namespace {

bool is_instruction_start(std::string_view line) {
  char c = line.front();
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// "<key> = <n>" -> n.
std::optional<std::uint64_t> keyed_number(std::string_view line, std::string_view key) {
  if (!line.starts_with(key)) return std::nullopt;
  std::string_view rest = trim(line.substr(key.size()));
  if (!rest.starts_with('=')) return std::nullopt;
  return parse_dec_u64(trim(rest.substr(1)));
}

}  // namespace

AccelsimKernelTrace::AccelsimKernelTrace(std::unique_ptr<LineSource> lines,
                                         std::shared_ptr<TraceStore> store)
    : lines_(std::move(lines)),
      store_(store != nullptr ? std::move(store) : default_trace_store()),
      header_(read_kernel_header(*lines_)),
      opcodes_(isa::OpcodeTable::get(header_.info.arch)),
      coverage_(header_.info.grid) {}

bool AccelsimKernelTrace::next_nonblank(std::string_view& line) {
  while (lines_->next(line)) {
    line = trim(line);
    if (!line.empty()) return true;
  }
  return false;
}

std::optional<CtaTrace> AccelsimKernelTrace::next_cta() {
  std::string_view line;
  if (!next_nonblank(line)) {
    // The end of the file: the trace must have held every CTA of the grid.
    if (!coverage_.complete()) {
      throw Error(fmt::format("{}: {}", lines_->name(), coverage_.missing_message()));
    }
    return std::nullopt;
  }
  if (line != "#BEGIN_TB") {
    throw_at(*lines_, fmt::format("'{}': expected #BEGIN_TB (the start of a CTA)", excerpt(line)));
  }
  cta_line_ = lines_->line_number();
  prev_warp_.reset();
  CtaTrace cta;
  cta.id = cta_id_ = read_cta_id();
  const std::uint32_t warps = header_.info.warps_per_cta();
  cta.warps.reserve(warps);
  for (std::uint32_t w = 0; w < warps; ++w) cta.warps.emplace_back(store_, w);
  std::vector<bool> seen(warps, false);
  for (;;) {
    if (!next_nonblank(line)) {
      throw_at(*lines_, fmt::format("the file ends inside CTA ({},{},{}) that begins at line {}: "
                                    "expected #END_TB",
                                    cta_id_.x, cta_id_.y, cta_id_.z, cta_line_));
    }
    if (line == "#END_TB") break;
    read_warp(line, cta, seen);
  }
  check_warps(seen);
  return cta;
}

void AccelsimKernelTrace::check_warps(const std::vector<bool>& seen) const {
  std::uint64_t missing = 0;
  std::vector<std::string> shown;
  for (std::uint32_t w = 0; w < seen.size(); ++w) {
    if (seen[w]) continue;
    ++missing;
    if (shown.size() < CtaCoverage::kListed) shown.push_back(std::to_string(w));
  }
  if (missing == 0) return;
  const Dim3& block = header_.info.block;
  throw_at(*lines_, fmt::format("CTA ({},{},{}) that begins at line {} has {} of the {} warps of "
                                "its block ({},{},{}): warp{} {} {} missing",
                                cta_id_.x, cta_id_.y, cta_id_.z, cta_line_, seen.size() - missing,
                                seen.size(), block.x, block.y, block.z, missing == 1 ? "" : "s",
                                listed(shown, missing), missing == 1 ? "is" : "are"));
}

Dim3 AccelsimKernelTrace::read_cta_id() {
  std::string_view line;
  constexpr std::string_view kExpected = "expected 'thread block = x,y,z'";
  if (!next_nonblank(line)) throw_at(*lines_, fmt::format("the file ends: {}", kExpected));
  std::string_view rest = line.starts_with("thread block") ? trim(line.substr(12)) : "";
  if (!rest.starts_with('=')) throw_at(*lines_, fmt::format("'{}': {}", excerpt(line), kExpected));
  rest = trim(rest.substr(1));
  std::array<std::uint32_t, 3> xyz{};
  for (std::size_t i = 0; i < 3; ++i) {
    std::size_t comma = rest.find(',');
    auto n = parse_dec_u32(trim(rest.substr(0, comma)));
    if (!n || (comma == std::string_view::npos) != (i == 2)) {
      throw_at(*lines_, fmt::format("'{}': {}", excerpt(line), kExpected));
    }
    xyz[i] = *n;
    rest.remove_prefix(comma == std::string_view::npos ? rest.size() : comma + 1);
  }
  const Dim3& grid = header_.info.grid;
  if (xyz[0] >= grid.x || xyz[1] >= grid.y || xyz[2] >= grid.z) {
    throw_at(*lines_, fmt::format("thread block = {},{},{}: expected a CTA inside the grid "
                                  "({},{},{})",
                                  xyz[0], xyz[1], xyz[2], grid.x, grid.y, grid.z));
  }
  const Dim3 id{xyz[0], xyz[1], xyz[2]};
  if (!coverage_.add(id)) {
    throw_at(*lines_, fmt::format("thread block = {},{},{}: CTA ({},{},{}) appears twice in the "
                                  "trace: expected each CTA of the grid once",
                                  id.x, id.y, id.z, id.x, id.y, id.z));
  }
  return id;
}

void AccelsimKernelTrace::read_warp(std::string_view warp_line, CtaTrace& cta,
                                    std::vector<bool>& seen) {
  const std::uint32_t warps = static_cast<std::uint32_t>(cta.warps.size());
  auto warp_id = keyed_number(warp_line, "warp");
  if (!warp_id) {
    if (prev_warp_ && is_instruction_start(warp_line)) {
      throw_at(*lines_, fmt::format("'{}': warp {} of CTA ({},{},{}) has more instruction lines "
                                    "than its insts = {} (expected 'warp = <n>' or #END_TB)",
                                    excerpt(warp_line), prev_warp_->first, cta_id_.x, cta_id_.y,
                                    cta_id_.z, prev_warp_->second));
    }
    throw_at(*lines_, fmt::format("'{}': expected 'warp = <n>' or #END_TB in CTA ({},{},{})",
                                  excerpt(warp_line), cta_id_.x, cta_id_.y, cta_id_.z));
  }
  if (*warp_id >= warps) {
    throw_at(*lines_,
             fmt::format("warp = {}: expected a warp index below {} (block {}x{}x{})", *warp_id,
                         warps, header_.info.block.x, header_.info.block.y, header_.info.block.z));
  }
  const auto w = static_cast<std::uint32_t>(*warp_id);
  if (seen[w])
    throw_at(*lines_, fmt::format("warp = {} appears twice in CTA ({},{},{})", w, cta_id_.x,
                                  cta_id_.y, cta_id_.z));
  seen[w] = true;

  std::string_view line;
  if (!next_nonblank(line)) throw_at(*lines_, "the file ends: expected 'insts = <n>'");
  auto count = keyed_number(line, "insts");
  if (!count || *count > std::numeric_limits<std::uint32_t>::max()) {
    throw_at(*lines_,
             fmt::format("'{}': expected 'insts = <n>' after warp = {}", excerpt(line), w));
  }
  WarpStreamWriter writer(store_, w);
  read_insts(w, *count, writer);
  cta.warps[w] = writer.finish();
  prev_warp_.emplace(w, *count);
}

void AccelsimKernelTrace::read_insts(std::uint32_t w, std::uint64_t count,
                                     WarpStreamWriter& writer) {
  std::string_view line;
  for (std::uint64_t i = 0; i < count; ++i) {
    if (!next_nonblank(line)) {
      throw_at(*lines_, fmt::format("the file ends inside warp {} of CTA ({},{},{}) after {} of "
                                    "its insts = {} instruction lines",
                                    w, cta_id_.x, cta_id_.y, cta_id_.z, i, count));
    }
    if (!is_instruction_start(line)) {
      throw_at(*lines_, fmt::format("'{}': warp {} of CTA ({},{},{}) declares insts = {} but "
                                    "has {} instruction lines",
                                    excerpt(line), w, cta_id_.x, cta_id_.y, cta_id_.z, count, i));
    }
    line_addresses_.clear();
    parse_instruction_line(line, header_.format, *lines_, scratch_, line_addresses_);
    if (header_.format.has_block_and_warp_ids() &&
        (scratch_.block != std::array{cta_id_.x, cta_id_.y, cta_id_.z} || scratch_.warp != w)) {
      throw_at(*lines_, fmt::format("the line is for CTA ({},{},{}) warp {}: expected CTA "
                                    "({},{},{}) warp {}",
                                    scratch_.block[0], scratch_.block[1], scratch_.block[2],
                                    scratch_.warp, cta_id_.x, cta_id_.y, cta_id_.z, w));
    }
    const std::uint32_t index = static_index(scratch_);
    if (statics_[index].op.async != isa::AsyncOp::kNone) {
      keep_async_record(statics_[index].op.async, 0, line_addresses_);
    }
    writer.add(index, scratch_.mask, line_addresses_);
  }
}

void AccelsimKernelTrace::keep_async_record(isa::AsyncOp op, std::size_t begin,
                                            std::vector<std::uint64_t>& addresses) const {
  const InstructionLine& line = scratch_;
  std::array<std::uint64_t, kAsyncRecordWords> record{kNoTraceValue, kNoTraceValue, 0};
  if (op == isa::AsyncOp::kBulkCommit) return;  // nothing to record
  const bool copy = op == isa::AsyncOp::kTmaLoad || op == isa::AsyncOp::kTmaStore ||
                    op == isa::AsyncOp::kTmaReduce || op == isa::AsyncOp::kTmaPrefetch ||
                    op == isa::AsyncOp::kClusterCopy || op == isa::AsyncOp::kClusterReduce;
  if (copy) {
    if (line.tma) {
      record = {line.tma_mbarrier, line.tma_bytes, line.tma_multicast};
    } else {
      // Addresses only: one 32-byte sector per listed address.
      record[1] = std::uint64_t{32} * (addresses.size() - begin);
    }
    addresses.insert(addresses.begin() + static_cast<std::ptrdiff_t>(begin), record.begin(),
                     record.end());
    return;
  }
  // SYNCS: the first active thread's address names the barrier; a negative immediate
  // records the data register's value.
  if (addresses.size() > begin) record[0] = addresses[begin];
  if (line.immediate < 0) record[1] = static_cast<std::uint64_t>(-(line.immediate + 1));
  if (op == isa::AsyncOp::kMbarWait && record[1] != kNoTraceValue && record[1] > 1) {
    throw_at(*lines_, fmt::format("{} records phase parity {} (immediate {}): expected 0 or 1 "
                                  "(immediate -1 or -2)",
                                  line.opcode, record[1], line.immediate));
  }
  addresses.resize(begin);
  addresses.insert(addresses.end(), record.begin(), record.end());
}

std::uint32_t AccelsimKernelTrace::static_index(const InstructionLine& inst) {
  // Code runs mostly straight, so the instruction after the previous one is likely next.
  std::uint32_t index = last_index_ + 1;
  if (index >= statics_.size() || statics_[index].pc != inst.pc) {
    auto found = statics_.find(inst.pc);
    index = found ? *found : decode(inst);
  }
  if (opcode_text_[index] != inst.opcode) {
    throw_at(*lines_,
             fmt::format("PC 0x{:04x} has opcode {} here but {} at line {}: expected "
                         "one opcode per PC",
                         inst.pc, inst.opcode, opcode_text_[index], decoded_at_line_[index]));
  }
  last_index_ = index;
  return index;
}

std::uint32_t AccelsimKernelTrace::decode(const InstructionLine& inst) {
  const isa::Arch arch = header_.info.arch;
  auto op = opcodes_.decode(inst.opcode);
  if (!op) {
    throw_at(*lines_, fmt::format("unknown opcode {} for {} (-binary version = {}): expected an "
                                  "opcode of the {} instruction set",
                                  inst.opcode, isa::arch_name(arch), header_.info.binary_version,
                                  isa::arch_name(arch)));
  }
  if (inst.mem_width > 255) {
    throw_at(*lines_,
             fmt::format("memory width {}: expected at most 255 bytes per thread", inst.mem_width));
  }
  isa::StaticInst s;
  s.pc = inst.pc;
  s.op = *op;
  s.mem_width_bytes = static_cast<std::uint8_t>(inst.mem_width);
  s.immediate = inst.immediate;
  for (std::size_t i = 0; i < inst.num_dst; ++i) {
    const std::uint16_t reg = inst.dst[i];
    if (reg == isa::kRegZero) continue;
    // Traces record the first register of a vector destination: the opcode says how many.
    const std::uint8_t count = i == 0 ? op->dst_regs : 1;
    if (reg + count - 1 >= isa::kRegZero) {
      throw_at(*lines_, fmt::format("{} writes R{}..R{}: expected registers below R255",
                                    inst.opcode, reg, reg + count - 1));
    }
    s.dst[s.num_dst++] = {reg, count};
  }
  for (std::size_t i = 0; i < inst.num_src; ++i) {
    if (inst.src[i] == isa::kRegZero) continue;
    if (s.num_src == isa::kMaxSrcRegs) {
      throw_at(*lines_,
               fmt::format("{} reads more than {} registers", inst.opcode, isa::kMaxSrcRegs));
    }
    s.src[s.num_src++] = inst.src[i];
  }
  const std::uint32_t index = statics_.add(s);
  opcode_text_.emplace_back(inst.opcode);
  decoded_at_line_.push_back(lines_->line_number());
  return index;
}

}  // namespace sassim::traces
