#include "traces/sass/listing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <utility>

#include "ground/error.h"
#include "traces/sass/operand.h"
#include "traces/tokens.h"
#include "traces/trace_error.h"

namespace sassim::traces::sass {
namespace {

// "/*00a0*/" at the front of `s`: the PC, and `s` advanced past it.
std::optional<uint64_t> leading_comment_hex(std::string_view& s) {
  if (!s.starts_with("/*")) return std::nullopt;
  size_t close = s.find("*/");
  if (close == std::string_view::npos) return std::nullopt;
  auto value = parse_hex_u64(trim(s.substr(2, close - 2)));
  if (!value) return std::nullopt;
  s.remove_prefix(close + 2);
  return value;
}

bool is_pc_comment(std::string_view s) {
  return s.starts_with("/*") && !s.starts_with("/* ") && leading_comment_hex(s).has_value();
}

// The first "sm_NN" (with an optional letter, "sm_90a") in `s`, or empty.
std::string find_arch(std::string_view s) {
  for (size_t at = s.find("sm_"); at != std::string_view::npos; at = s.find("sm_", at + 1)) {
    size_t end = at + 3;
    while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end])) != 0) ++end;
    if (end == at + 3) continue;
    if (end < s.size() && std::islower(static_cast<unsigned char>(s[end])) != 0) ++end;
    return std::string(s.substr(at, end - at));
  }
  return {};
}

// The operand texts of "R4, R2.64 `(.L_x_1)": split at commas, then at blanks (RET's
// "R20 `(fn)" is two operands without a comma).
std::vector<std::string_view> operand_texts(std::string_view s) {
  std::vector<std::string_view> out;
  if (trim(s).empty()) return out;
  while (true) {
    size_t comma = s.find(',');
    std::string_view piece = trim(s.substr(0, comma));
    if (piece.empty()) {
      out.emplace_back();
    } else {
      TokenCursor tokens(piece);
      for (std::string_view t = tokens.next(); !t.empty(); t = tokens.next()) out.push_back(t);
    }
    if (comma == std::string_view::npos) return out;
    s.remove_prefix(comma + 1);
  }
}

bool is_branch(std::string_view opcode) {
  return opcode == "BRA" || opcode == "BSSY" || opcode == "CALL" || opcode == "JMP" ||
         opcode == "SSY" || opcode == "PBK";
}

class Parser {
 public:
  explicit Parser(std::string_view origin) { listing_.origin = std::string(origin); }

  Listing run(std::string_view text) {
    uint32_t line = 0;
    while (!text.empty()) {
      size_t nl = text.find('\n');
      std::string_view raw = text.substr(0, nl);
      text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
      ++line;
      std::string_view t = trim(raw);
      if (t.empty()) continue;
      if (is_pc_comment(t)) {
        std::string_view high = text.substr(0, text.find('\n'));
        if (instruction(t, line, high)) {
          text.remove_prefix(std::min(text.size(), high.size() + 1));
          ++line;
        }
      } else {
        other_line(t, line);
      }
    }
    finish_function();
    if (listing_.functions.empty()) {
      throw Error(
          fmt::format("{}: no function found; expected a SASS listing with a function "
                      "('name:' after '.global name', or 'Function : name')",
                      listing_.origin));
    }
    return std::move(listing_);
  }

 private:
  struct LabelUse {
    size_t instruction;
    size_t operand;
    uint32_t line;
  };

  [[noreturn]] void fail(uint32_t line, std::string_view message) const {
    throw_at(listing_.origin, line, message);
  }

  void other_line(std::string_view t, uint32_t line) {
    if (t.starts_with("/*")) {
      fail(line,
           fmt::format("expected an instruction '/*PC*/ OPCODE ... ;' but found '{}'", excerpt(t)));
    }
    if (t.starts_with("//")) {
      note_arch(t);
    } else if (t.starts_with("Function :")) {
      cuobjdump_ = true;
      start_function(trim(t.substr(10)), line);
    } else if (t.back() == ':' && t.find_first_of(" \t") == std::string_view::npos) {
      label(t.substr(0, t.size() - 1), line);
    } else if (t.front() == '.') {
      directive(t);
    } else if (t.find(';') != std::string_view::npos) {
      fail(line, fmt::format("expected an instruction PC '/*0000*/' before '{}'", excerpt(t)));
    } else {
      note_arch(t);  // cuobjdump's "code for sm_80", "arch = sm_80"
    }
  }

  void note_arch(std::string_view t) {
    if (listing_.arch.empty()) listing_.arch = find_arch(t);
  }

  void directive(std::string_view t) {
    TokenCursor tokens(t);
    std::string_view name = tokens.next();
    if (name == ".global") {
      globals_.insert(std::string(tokens.next()));
    } else if (name == ".sectioninfo") {
      constexpr std::string_view kKey = "SHI_REGISTERS=";
      size_t at = t.find(kKey);
      if (at == std::string_view::npos) return;
      std::string_view digits = t.substr(at + kKey.size());
      digits = digits.substr(0, digits.find_first_not_of("0123456789"));
      if (auto n = parse_dec_u32(digits)) pending_registers_ = *n;
    } else if (name == ".headerflags") {
      // "EF_CUDA_SM80": arch sm_80
      size_t at = t.find("EF_CUDA_SM");
      if (at != std::string_view::npos && listing_.arch.empty()) {
        std::string_view digits = t.substr(at + 10);
        digits = digits.substr(0, digits.find_first_not_of("0123456789"));
        if (!digits.empty()) listing_.arch = fmt::format("sm_{}", digits);
      }
    }
  }

  void label(std::string_view name, uint32_t line) {
    const bool starts = globals_.contains(std::string(name)) ||
                        (!open_ && !name.starts_with('.') && !name.starts_with('$'));
    if (starts) start_function(name, line);
    if (!open_) return;  // ".text.x:" before any function
    if (labels_.contains(std::string(name)) ||
        std::find(pending_.begin(), pending_.end(), name) != pending_.end()) {
      fail(line, fmt::format("label '{}' defined twice; expected each label once", name));
    }
    pending_.emplace_back(name);
  }

  void start_function(std::string_view name, uint32_t line) {
    finish_function();
    Function& f = listing_.functions.emplace_back();
    f.name = std::string(name);
    f.registers = pending_registers_;
    f.first_line = line;
    pending_registers_ = 0;
    open_ = true;
  }

  void finish_function() {
    if (!open_) return;
    Function& f = listing_.functions.back();
    const uint64_t end_pc = f.instructions.empty() ? 0 : f.instructions.back().pc + 16;
    for (const std::string& name : pending_) labels_[name] = end_pc;
    for (const LabelUse& use : uses_) {
      Operand& op = f.instructions[use.instruction].operands[use.operand];
      auto it = labels_.find(op.name);
      if (it == labels_.end()) {
        fail(use.line, fmt::format("label '{}' is not defined in function {}; expected a line "
                                   "'{}:'",
                                   op.name, f.name, op.name));
      }
      op.target_pc = it->second;
    }
    labels_.clear();
    pending_.clear();
    uses_.clear();
    open_ = false;
  }

  // Returns whether `high` (the next line) was taken as the second encoding word.
  bool instruction(std::string_view t, uint32_t line, std::string_view high) {
    if (!open_) {
      fail(line,
           "expected a function label ('name:' after '.global name') before the first "
           "instruction");
    }
    Function& f = listing_.functions.back();
    Instruction in;
    in.line = line;
    in.pc = *leading_comment_hex(t);
    if (!f.instructions.empty() && in.pc <= f.instructions.back().pc) {
      fail(line, fmt::format("PC {:#06x} out of order; expected a PC above {:#06x}", in.pc,
                             f.instructions.back().pc));
    }
    size_t semi = t.find(';');
    if (semi == std::string_view::npos) {
      fail(line, fmt::format("expected ';' after the instruction '{}'", excerpt(trim(t))));
    }
    statement(trim(t.substr(0, semi)), in, line);
    std::string_view tail = trim(t.substr(semi + 1));
    bool took_high = false;
    if (!tail.empty()) {
      auto low = leading_comment_hex(tail);
      if (!low || !trim(tail).empty()) {
        fail(line, fmt::format("expected the encoding '/* 0x... */' after ';' but found '{}'",
                               excerpt(t.substr(semi + 1))));
      }
      in.encoding[0] = *low;
      std::string_view h = trim(high);
      auto high_word = leading_comment_hex(h);
      if (high_word && trim(h).empty()) {
        in.encoding[1] = *high_word;
        in.has_encoding = true;
        in.control = decode_control(*high_word);
        took_high = true;
      } else if (!cuobjdump_) {
        fail(line + 1, fmt::format("expected the encoding's second word '/* 0x... */' but "
                                   "found '{}'",
                                   excerpt(trim(high))));
      }
    }
    for (const std::string& name : pending_) labels_[name] = in.pc;
    pending_.clear();
    f.instructions.push_back(std::move(in));
    return took_high;
  }

  void statement(std::string_view s, Instruction& in, uint32_t line) {
    s = without_annotation(s, line);
    TokenCursor tokens(s);
    std::string_view word = tokens.next();
    if (word.starts_with('@')) {
      auto guard = parse_operand(word.substr(1));
      if (!guard ||
          (guard->kind != OperandKind::kPred && guard->kind != OperandKind::kUniformPred)) {
        fail(line, fmt::format("expected a guard predicate '@P0' or '@!UP1' but found '{}'", word));
      }
      if (guard->reg != kPT || guard->negate) {
        in.guard =
            Instruction::Guard{guard->reg, guard->kind == OperandKind::kUniformPred, guard->negate};
      }
      word = tokens.next();
    }
    if (word.empty() || std::isupper(static_cast<unsigned char>(word.front())) == 0) {
      fail(line, fmt::format("expected an opcode but found '{}'", excerpt(s)));
    }
    in.mnemonic = std::string(word);
    size_t dot = word.find('.');
    in.opcode = std::string(word.substr(0, dot));
    while (dot != std::string_view::npos) {
      size_t next = word.find('.', dot + 1);
      in.modifiers.emplace_back(
          word.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1));
      dot = next;
    }
    std::string_view rest = s.substr(static_cast<size_t>(word.data() + word.size() - s.data()));
    for (std::string_view text : operand_texts(rest)) {
      auto op = parse_operand(text);
      if (!op) {
        fail(line,
             fmt::format("expected an operand (register, predicate, immediate, c[bank][offset], "
                         "[address] or `(label)) but found '{}'",
                         excerpt(text)));
      }
      if (cuobjdump_ && op->kind == OperandKind::kImmInt && is_branch(in.opcode)) {
        op->kind = OperandKind::kLabel;  // cuobjdump writes targets as absolute PCs
        op->target_pc = static_cast<uint64_t>(op->imm);
        op->name = op->text;
      } else if (op->kind == OperandKind::kLabel) {
        uses_.push_back({listing_.functions.back().instructions.size(), in.operands.size(), line});
      }
      in.operands.push_back(std::move(*op));
    }
  }

  // nvdisasm marks some instructions after their operands with a note in '(*"..."*)' (the
  // register allocator's spill code: (*"SpillRefill"*)); it says nothing of what they do.
  std::string_view without_annotation(std::string_view s, uint32_t line) {
    const size_t open = s.find("(*\"");
    if (open == std::string_view::npos) return s;
    const size_t close = s.find("\"*)", open + 3);
    if (close == std::string_view::npos || !trim(s.substr(close + 3)).empty()) {
      fail(line, fmt::format("expected an annotation '(*\"...\"*)' to end the instruction but "
                             "found '{}'",
                             excerpt(s.substr(open))));
    }
    return trim(s.substr(0, open));
  }

  Listing listing_;
  std::set<std::string> globals_;
  uint32_t pending_registers_ = 0;
  bool open_ = false;
  bool cuobjdump_ = false;
  std::map<std::string, uint64_t> labels_;  // of the open function
  std::vector<std::string> pending_;        // labels waiting for their instruction
  std::vector<LabelUse> uses_;
};

}  // namespace

ControlBits decode_control(uint64_t high_word) {
  const uint64_t w = high_word >> 41;
  ControlBits c;
  c.stall = static_cast<uint8_t>(w & 0xf);
  c.yield = ((w >> 4) & 1) == 0;  // inverted: see ControlBits::yield
  c.write_barrier = static_cast<uint8_t>((w >> 5) & 0x7);
  c.read_barrier = static_cast<uint8_t>((w >> 8) & 0x7);
  c.wait_mask = static_cast<uint8_t>((w >> 11) & 0x3f);
  c.reuse = static_cast<uint8_t>((w >> 17) & 0xf);
  return c;
}

Listing parse_listing(std::string_view text, std::string_view origin) {
  return Parser(origin).run(text);
}

}  // namespace sassim::traces::sass
