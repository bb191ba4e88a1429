#include "traces/sass/operand.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <system_error>

#include "traces/tokens.h"

namespace sassim::traces::sass {
namespace {

bool is_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return false;
  }
  return true;
}

// "R12" with prefix "R": 12 when the rest is a number no larger than `max`.
std::optional<uint32_t> numbered(std::string_view s, std::string_view prefix, uint32_t max) {
  if (!s.starts_with(prefix)) return std::nullopt;
  s.remove_prefix(prefix.size());
  if (!is_digits(s)) return std::nullopt;
  auto n = parse_dec_u32(s);
  if (!n || *n > max) return std::nullopt;
  return n;
}

// Splits "R2.64.reuse" into the base "R2" and the suffixes after it.
std::string_view split_suffixes(std::string_view s, Operand& op) {
  size_t dot = s.find('.');
  std::string_view base = s.substr(0, dot);
  while (dot != std::string_view::npos) {
    size_t next = s.find('.', dot + 1);
    std::string_view suffix =
        s.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1);
    if (suffix == "reuse") {
      op.reuse = true;
    } else {
      op.suffixes.emplace_back(suffix);
    }
    dot = next;
  }
  return base;
}

// A general or uniform register by its bare name ("R2", "RZ", "UR4", "URZ").
std::optional<RegRef> reg_ref(std::string_view base) {
  if (base == "RZ") return RegRef{kRZ, false, false};
  if (base == "URZ") return RegRef{kURZ, true, false};
  if (auto n = numbered(base, "UR", kURZ)) return RegRef{*n, true, false};
  if (auto n = numbered(base, "R", kRZ)) return RegRef{*n, false, false};
  return std::nullopt;
}

// Hexadecimal or decimal integer with an optional sign.
std::optional<int64_t> signed_int(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  std::optional<uint64_t> magnitude;
  if (s.starts_with("0x") || s.starts_with("0X")) {
    magnitude = parse_hex_u64(s);
  } else if (is_digits(s)) {
    magnitude = parse_dec_u64(s);
  }
  if (!magnitude) return std::nullopt;
  const auto value = static_cast<int64_t>(*magnitude);
  return negative ? -value : value;
}

bool parse_immediate(std::string_view s, Operand& op) {
  if (auto v = signed_int(s)) {
    op.kind = OperandKind::kImmInt;
    op.imm = *v;
    op.fimm = static_cast<double>(*v);
    return true;
  }
  bool negative = false;
  std::string_view body = s;
  if (!body.empty() && (body.front() == '-' || body.front() == '+')) {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  double value = 0.0;
  if (body == "INF") {
    value = std::numeric_limits<double>::infinity();
  } else if (body == "QNAN" || body == "NAN") {
    value = std::numeric_limits<double>::quiet_NaN();
  } else {
    if (body.empty() || std::isdigit(static_cast<unsigned char>(body.front())) == 0) return false;
    const char* end = body.data() + body.size();
    auto [ptr, ec] = std::from_chars(body.data(), end, value);
    if (ec != std::errc() || ptr != end) return false;
  }
  op.kind = OperandKind::kImmFloat;
  op.fimm = negative ? -value : value;
  return true;
}

// The terms of an address "R2.64+UR4+-0x10" into `mem`.
bool parse_address(std::string_view s, MemRef& mem, Operand& op) {
  if (s.empty()) return false;
  bool have_reg = false;
  bool have_ureg = false;
  bool have_offset = false;
  while (true) {
    size_t plus = s.find('+');
    std::string_view term = s.substr(0, plus);
    if (term.empty()) return false;
    if (auto v = signed_int(term)) {
      if (have_offset) return false;
      mem.offset = *v;
      have_offset = true;
    } else {
      Operand inner;
      std::string_view base = split_suffixes(term, inner);
      auto r = reg_ref(base);
      if (!r || inner.reuse) return false;
      for (const std::string& suffix : inner.suffixes) {
        if (suffix == "64") {
          r->wide = true;
        } else if ((suffix == "X4" || suffix == "X8" || suffix == "X16") && !r->uniform) {
          mem.scale = suffix == "X4" ? 4U : suffix == "X8" ? 8U : 16U;
        } else {
          op.suffixes.push_back(suffix);
        }
      }
      RegRef& slot = r->uniform ? mem.ureg : mem.reg;
      bool& have = r->uniform ? have_ureg : have_reg;
      if (have) return false;
      slot = *r;
      have = true;
    }
    if (plus == std::string_view::npos) return true;
    s.remove_prefix(plus + 1);
  }
}

// "[...]" at the front of `s`: the contents, and `s` advanced past the bracket.
std::optional<std::string_view> bracket(std::string_view& s) {
  if (s.empty() || s.front() != '[') return std::nullopt;
  size_t close = s.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view inside = s.substr(1, close - 1);
  s.remove_prefix(close + 1);
  return inside;
}

// Dot-suffixes after a closing bracket ("c[0x0][0x10].H1").
bool trailing_suffixes(std::string_view rest, Operand& op) {
  if (rest.empty()) return true;
  if (rest.front() != '.') return false;
  split_suffixes(rest, op);
  return true;
}

bool parse_const(std::string_view s, Operand& op) {
  const bool indexed_bank = s.starts_with("cx[");
  s.remove_prefix(indexed_bank ? 2 : 1);
  auto bank = bracket(s);
  if (!bank) return false;
  if (indexed_bank) {
    auto r = reg_ref(*bank);
    if (!r) return false;
    op.const_bank_reg = *r;
  } else {
    auto b = signed_int(*bank);
    if (!b || *b < 0 || *b > 0x1f) return false;
    op.const_bank = static_cast<uint32_t>(*b);
  }
  auto offset = bracket(s);
  if (!offset) return false;
  MemRef address;
  if (!parse_address(*offset, address, op) || address.scale != 1) return false;
  if (address.reg.present() && address.ureg.present()) return false;
  op.const_offset_reg = address.ureg.present() ? address.ureg : address.reg;
  op.const_offset = address.offset;
  op.kind = OperandKind::kConst;
  return trailing_suffixes(s, op);
}

bool parse_memory(std::string_view s, Operand& op) {
  if (s.starts_with("desc[")) {
    s.remove_prefix(4);
    auto d = bracket(s);
    if (!d) return false;
    auto r = reg_ref(*d);
    if (!r || !r->uniform) return false;
    op.mem.descriptor = r->index;
  }
  auto inside = bracket(s);
  if (!inside || !parse_address(*inside, op.mem, op)) return false;
  op.kind = OperandKind::kMemory;
  return trailing_suffixes(s, op);
}

bool is_word(std::string_view s) {
  if (s.empty() || std::islower(static_cast<unsigned char>(s.front())) == 0) return false;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return false;
  }
  return true;
}

// "gdesc[UR4]", "gsb0", "tnspA": kept as text.
bool parse_other(std::string_view s, Operand& op) {
  size_t open = s.find('[');
  if (!is_word(s.substr(0, open))) return false;
  if (open != std::string_view::npos) {
    std::string_view rest = s.substr(open);
    if (!bracket(rest) || !rest.empty()) return false;
  }
  op.kind = OperandKind::kOther;
  op.name = std::string(s);
  return true;
}

bool parse_named(std::string_view s, Operand& op) {
  if (s == "SRZ" || s.starts_with("SR_")) {
    op.kind = OperandKind::kSpecialReg;
    op.name = std::string(s);
    return true;
  }
  std::string_view base = split_suffixes(s, op);
  if (auto r = reg_ref(base)) {
    op.kind = r->uniform ? OperandKind::kUniformReg : OperandKind::kReg;
    op.reg = r->index;
  } else if (base == "PT" || base == "UPT") {
    op.kind = base == "PT" ? OperandKind::kPred : OperandKind::kUniformPred;
    op.reg = kPT;
  } else if (auto up = numbered(base, "UP", kPT)) {
    op.kind = OperandKind::kUniformPred;
    op.reg = *up;
  } else if (auto p = numbered(base, "P", kPT)) {
    op.kind = OperandKind::kPred;
    op.reg = *p;
  } else if (auto sb = numbered(base, "SB", 5)) {
    op.kind = OperandKind::kScoreboard;
    op.reg = *sb;
  } else if (auto b = numbered(base, "B", 15)) {
    op.kind = OperandKind::kBarrier;
    op.reg = *b;
  } else {
    return false;
  }
  return true;
}

bool is_predicate(OperandKind kind) {
  return kind == OperandKind::kPred || kind == OperandKind::kUniformPred;
}

}  // namespace

std::optional<Operand> parse_operand(std::string_view text) {
  Operand op;
  op.text = std::string(text);
  std::string_view s = text;
  if (s.starts_with("`(") && s.ends_with(")")) {
    op.kind = OperandKind::kLabel;
    op.name = std::string(s.substr(2, s.size() - 3));
    if (op.name.empty()) return std::nullopt;
    return op;
  }
  if (parse_immediate(s, op)) return op;
  if (s.starts_with("!")) {
    s.remove_prefix(1);
    if (!parse_named(s, op) || !is_predicate(op.kind)) return std::nullopt;
    op.negate = true;
    return op;
  }
  if (s.starts_with("-")) {
    op.negate = true;
    s.remove_prefix(1);
  }
  if (s.starts_with("~")) {
    op.invert = true;
    s.remove_prefix(1);
  }
  std::string unwrapped;
  if (s.starts_with("|")) {
    // |R4| or, with the register's suffixes outside the bars, |R22|.reuse.
    const size_t close = s.find('|', 1);
    if (close == std::string_view::npos || close < 2) return std::nullopt;
    const std::string_view suffix = s.substr(close + 1);
    if (!suffix.empty() && !suffix.starts_with(".")) return std::nullopt;
    op.absolute = true;
    unwrapped = std::string(s.substr(1, close - 1)) + std::string(suffix);
    s = unwrapped;
  }
  bool ok = false;
  if (s.starts_with("c[") || s.starts_with("cx[")) {
    ok = parse_const(s, op);
  } else if (s.starts_with("[") || s.starts_with("desc[")) {
    ok = parse_memory(s, op);
  } else if (parse_named(s, op)) {
    ok = true;
  } else {
    ok = parse_other(s, op);
  }
  if (!ok) return std::nullopt;
  return op;
}

std::string_view kind_name(OperandKind kind) {
  switch (kind) {
    case OperandKind::kReg:
      return "kReg";
    case OperandKind::kUniformReg:
      return "kUniformReg";
    case OperandKind::kPred:
      return "kPred";
    case OperandKind::kUniformPred:
      return "kUniformPred";
    case OperandKind::kImmInt:
      return "kImmInt";
    case OperandKind::kImmFloat:
      return "kImmFloat";
    case OperandKind::kConst:
      return "kConst";
    case OperandKind::kMemory:
      return "kMemory";
    case OperandKind::kSpecialReg:
      return "kSpecialReg";
    case OperandKind::kLabel:
      return "kLabel";
    case OperandKind::kBarrier:
      return "kBarrier";
    case OperandKind::kScoreboard:
      return "kScoreboard";
    case OperandKind::kOther:
      return "kOther";
  }
  return "?";
}

}  // namespace sassim::traces::sass
