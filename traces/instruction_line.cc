#include "traces/instruction_line.h"

#include <fmt/format.h>

#include <bit>
#include <optional>

#include "traces/tokens.h"
#include "traces/trace_error.h"

namespace sassim::traces {
namespace {

class LineParser {
 public:
  LineParser(std::string_view line, const LineSource& lines)
      : tokens_(line), line_(line), lines_(lines) {}

  std::string_view token(std::string_view what) {
    std::string_view t = tokens_.next();
    if (t.empty()) missing(what);
    return t;
  }

  template <typename T>
  T value(std::optional<T> parsed, std::string_view t, std::string_view what) {
    if (!parsed) bad(t, what);
    return *parsed;
  }

  std::uint64_t hex(std::string_view what) {
    std::string_view t = token(what);
    return value(parse_hex_u64(t), t, what);
  }
  std::uint32_t dec(std::string_view what) {
    std::string_view t = token(what);
    return value(parse_dec_u32(t), t, what);
  }
  std::int64_t signed_dec(std::string_view what) {
    std::string_view t = token(what);
    return value(parse_dec_i64(t), t, what);
  }

  // Version 5 immediates are signed ("-8"); accept unsigned 64-bit values too (kept
  // as their two's-complement bit pattern).
  std::int64_t immediate() {
    std::string_view t = token("a decimal immediate");
    if (auto v = parse_dec_i64(t)) return *v;
    if (auto u = parse_dec_u64(t)) return static_cast<std::int64_t>(*u);
    bad(t, "a decimal immediate");
  }

  std::uint16_t reg(std::string_view what) {
    std::string_view t = token(what);
    std::optional<std::uint32_t> n;
    if (t.size() >= 2 && t[0] == 'R') n = parse_dec_u32(t.substr(1));
    if (!n || *n > 255) bad(t, what);
    return static_cast<std::uint16_t>(*n);
  }

  std::string_view peek() const {
    TokenCursor copy = tokens_;
    return copy.next();
  }

  void end() {
    std::string_view extra = tokens_.next();
    if (!extra.empty()) {
      fail(fmt::format("unexpected '{}' after the last field: expected the end of the line",
                       excerpt(extra)));
    }
  }

  [[noreturn]] void missing(std::string_view what) {
    fail(fmt::format("the line ends early: expected {}", what));
  }
  [[noreturn]] void bad(std::string_view t, std::string_view what) {
    fail(fmt::format("'{}': expected {}", excerpt(t), what));
  }
  [[noreturn]] void fail(std::string_view message) {
    throw_at(lines_, fmt::format("{} (in '{}')", message, excerpt(line_)));
  }

 private:
  TokenCursor tokens_;
  std::string_view line_;
  const LineSource& lines_;
};

void parse_addresses(LineParser& p, std::uint32_t mask, std::vector<std::uint64_t>& addresses) {
  const std::uint32_t mode = p.dec("an address mode (0 list, 1 base+stride, 2 base+delta)");
  const int active = std::popcount(mask);
  switch (mode) {
    case 0:
      for (int i = 0; i < active; ++i)
        addresses.push_back(p.hex("a hex address per active thread"));
      break;
    case 1: {
      const std::uint64_t base = p.hex("a hex base address");
      const auto stride = static_cast<std::uint64_t>(p.signed_dec("a decimal stride"));
      for (int i = 0; i < active; ++i) {
        addresses.push_back(base + static_cast<std::uint64_t>(i) * stride);
      }
      break;
    }
    case 2: {
      std::uint64_t address = p.hex("a hex base address");
      if (active > 0) addresses.push_back(address);
      for (int i = 1; i < active; ++i) {
        address += static_cast<std::uint64_t>(p.signed_dec("a decimal address delta"));
        addresses.push_back(address);
      }
      break;
    }
    default:
      p.fail(
          fmt::format("bad address mode {} (expected 0 list, 1 base+stride, 2 base+delta)", mode));
  }
}

// Hopper bulk-copy / TMA opcodes, whose lines carry the TMA fields instead of the
// per-thread addresses (Accel-Sim's trace parser: UTMALDG, UTMASTG, UTMAPF, UTMAREDG,
// UBLKCP, UBLKPF, UBLKRED).
bool is_tma_opcode(std::string_view opcode) {
  const std::string_view base = opcode.substr(0, opcode.find('.'));
  for (std::string_view op :
       {"UTMALDG", "UTMASTG", "UTMAPF", "UTMAREDG", "UBLKCP", "UBLKPF", "UBLKRED"}) {
    if (base == op) return true;
  }
  return false;
}

// mbarrier multicast [cta_mask] bytes oob_bytes mode transfers...: mode 3 lists a count
// and that many hex addresses, mode 4 a hex base, a count and count - 1 decimal deltas
// (each relative to the previous address). The transfer addresses go to `addresses`.
void parse_tma_fields(LineParser& p, InstructionLine& out, std::vector<std::uint64_t>& addresses) {
  out.tma = true;
  out.tma_mbarrier = p.hex("a hex mbarrier address");
  const std::uint32_t multicast = p.dec("the multicast flag (0 or 1)");
  if (multicast > 1) p.fail(fmt::format("multicast flag {}: expected 0 or 1", multicast));
  out.tma_multicast = 0;
  if (multicast == 1) {
    const std::uint64_t mask = p.hex("a hex multicast CTA mask");
    // A cluster has at most 16 CTAs (sm_90, non-portable size).
    if (mask > 0xffff) {
      p.fail(fmt::format("multicast CTA mask {:#x}: expected bits 0-15 (16 CTAs at most)", mask));
    }
    out.tma_multicast = static_cast<std::uint32_t>(mask);
  }
  out.tma_bytes = p.dec("the TMA byte count");
  p.dec("the TMA out-of-bounds byte count");
  const std::uint32_t mode = p.dec("a TMA address mode (3 list, 4 base+delta)");
  if (mode == 3) {
    const std::uint32_t count = p.dec("the number of TMA transfers");
    for (std::uint32_t i = 0; i < count; ++i) addresses.push_back(p.hex("a hex transfer address"));
  } else if (mode == 4) {
    std::uint64_t address = p.hex("a hex base transfer address");
    const std::uint32_t count = p.dec("the number of TMA transfers");
    if (count > 0) addresses.push_back(address);
    for (std::uint32_t i = 1; i < count; ++i) {
      address += static_cast<std::uint64_t>(p.signed_dec("a decimal transfer address delta"));
      addresses.push_back(address);
    }
  } else {
    p.fail(fmt::format("bad TMA address mode {} (expected 3 list, 4 base+delta)", mode));
  }
}

}  // namespace

void parse_instruction_line(std::string_view line, const TraceFormat& format,
                            const LineSource& lines, InstructionLine& out,
                            std::vector<std::uint64_t>& addresses) {
  LineParser p(line, lines);
  if (format.has_block_and_warp_ids()) {
    out.block[0] = p.dec("the CTA x index");
    out.block[1] = p.dec("the CTA y index");
    out.block[2] = p.dec("the CTA z index");
    out.warp = p.dec("the warp index");
  }
  if (format.lineinfo) p.dec("a decimal source line number");
  out.pc = p.hex("a hex PC");
  {
    std::string_view t = p.token("a 32-bit hex active mask");
    out.mask = p.value(parse_hex_u32(t), t, "a 32-bit hex active mask");
  }
  const std::uint32_t num_dst = p.dec("the number of destination registers");
  if (num_dst > kMaxLineDsts) {
    p.fail(fmt::format("{} destination registers: expected at most {}", num_dst, kMaxLineDsts));
  }
  out.num_dst = static_cast<std::uint8_t>(num_dst);
  for (std::uint32_t i = 0; i < num_dst; ++i) out.dst[i] = p.reg("a destination register R<n>");
  out.opcode = p.token("an opcode");
  const std::uint32_t num_src = p.dec("the number of source registers");
  if (num_src > kMaxLineSrcs) {
    p.fail(fmt::format("{} source registers: expected at most {}", num_src, kMaxLineSrcs));
  }
  out.num_src = static_cast<std::uint8_t>(num_src);
  for (std::uint32_t i = 0; i < num_src; ++i) out.src[i] = p.reg("a source register R<n>");
  out.mem_width = p.dec("the memory width in bytes (0 for none)");
  out.tma = false;
  out.tma_mbarrier = 0;
  out.tma_bytes = 0;
  out.tma_multicast = 0;
  // A TMA line carries the TMA fields (they begin with the hex mbarrier address) or,
  // as tracers without them write it, per-thread addresses like any memory line.
  if (is_tma_opcode(out.opcode) && p.peek().starts_with("0x")) {
    parse_tma_fields(p, out, addresses);
  } else if (out.mem_width > 0) {
    parse_addresses(p, out.mask, addresses);
  }
  out.immediate = format.has_immediate() ? p.immediate() : 0;
  p.end();
}

}  // namespace sassim::traces
