// Builds small SASS functions instruction by instruction (as the listing parser would
// produce them) and runs them on one CTA.
#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "traces/emu/executor.h"
#include "traces/sass/listing.h"

namespace sassim::emu::testing {

namespace sass = traces::sass;

inline std::string named(const char* prefix, int64_t v) {
  std::string s(prefix);
  s += std::to_string(v);
  return s;
}

inline sass::Operand R(uint32_t r, std::initializer_list<std::string> suffixes = {}) {
  sass::Operand o;
  o.kind = sass::OperandKind::kReg;
  o.reg = r;
  o.text = named("R", r);
  o.suffixes = suffixes;
  return o;
}
inline sass::Operand neg(sass::Operand o) {
  o.negate = true;
  return o;
}
inline sass::Operand inv(sass::Operand o) {
  o.invert = true;
  return o;
}
inline sass::Operand UR(uint32_t r) {
  sass::Operand o = R(r);
  o.kind = sass::OperandKind::kUniformReg;
  o.text = named("UR", r);
  return o;
}
inline sass::Operand P(uint32_t p, bool negate = false) {
  sass::Operand o;
  o.kind = sass::OperandKind::kPred;
  o.reg = p;
  o.negate = negate;
  o.text = named(negate ? "!P" : "P", p);
  return o;
}
inline sass::Operand UP(uint32_t p, bool negate = false) {
  sass::Operand o = P(p, negate);
  o.kind = sass::OperandKind::kUniformPred;
  return o;
}
inline sass::Operand I(int64_t v) {
  sass::Operand o;
  o.kind = sass::OperandKind::kImmInt;
  o.imm = v;
  o.text = named("0x", v);
  return o;
}
inline sass::Operand F(double v) {
  sass::Operand o;
  o.kind = sass::OperandKind::kImmFloat;
  o.fimm = v;
  o.text = std::to_string(v);
  return o;
}
inline sass::Operand C(int64_t offset) {
  sass::Operand o;
  o.kind = sass::OperandKind::kConst;
  o.const_offset = offset;
  o.text = named("c[0x0]", offset);
  return o;
}
inline sass::Operand M(uint32_t reg, bool wide = false, int64_t offset = 0) {
  sass::Operand o;
  o.kind = sass::OperandKind::kMemory;
  o.mem.reg.index = reg;
  o.mem.reg.wide = wide;
  o.mem.offset = offset;
  o.text = named("[R]", reg);
  return o;
}
inline sass::Operand SR(std::string name) {
  sass::Operand o;
  o.kind = sass::OperandKind::kSpecialReg;
  o.name = name;
  o.text = name;
  return o;
}
inline sass::Operand L(uint64_t pc) {
  sass::Operand o;
  o.kind = sass::OperandKind::kLabel;
  o.target_pc = pc;
  o.text = "`(.L)";
  return o;
}
inline sass::Operand B(uint32_t b) {
  sass::Operand o;
  o.kind = sass::OperandKind::kBarrier;
  o.reg = b;
  o.text = named("B", b);
  return o;
}

class Rig {
 public:
  // Appends "MNEMONIC operands" at the next PC; `guard` is "@P0" / "@!P1" or empty.
  Rig& add(const std::string& mnemonic, std::vector<sass::Operand> operands,
           const std::string& guard = "") {
    sass::Instruction in;
    in.pc = 16 * f_.instructions.size();
    in.line = static_cast<uint32_t>(100 + f_.instructions.size());
    in.mnemonic = mnemonic;
    size_t dot = mnemonic.find('.');
    in.opcode = mnemonic.substr(0, dot);
    while (dot != std::string::npos) {
      const size_t next = mnemonic.find('.', dot + 1);
      in.modifiers.push_back(
          mnemonic.substr(dot + 1, next == std::string::npos ? next : next - dot - 1));
      dot = next;
    }
    in.operands = std::move(operands);
    if (!guard.empty()) {
      const bool negate = guard[1] == '!';
      in.guard = sass::Instruction::Guard{static_cast<uint32_t>(guard.back() - '0'), false, negate};
    }
    f_.instructions.push_back(std::move(in));
    return *this;
  }
  uint64_t next_pc() const { return 16 * f_.instructions.size(); }

  // Decodes and runs one CTA of `threads` threads, or a grid of one cluster of `cluster`
  // CTAs of `threads` threads each.
  const Cta& run(uint32_t threads = 32, Dim3 cluster = {}) {
    f_.name = "test_kernel";
    if (bank_.bytes.empty()) bank_.bytes.assign(0x400, 0);
    program_ = decode_program(f_, "test.sass", bank_);
    LaunchShape shape;
    shape.grid = cluster;
    shape.cluster = cluster;
    shape.block = {threads, 1, 1};
    shape.shared_bytes = 4096;
    shape.local_bytes = 256;
    shape.max_warp_insts = 100000;
    executor_ = std::make_unique<Executor>(program_, bank_, memory_, shape);
    executor_->run_cluster({0, 0, 0});
    return executor_->cta();
  }
  // The CTA of cluster rank `rank` of the last run.
  const Cta& cta_of_rank(uint32_t rank) const { return executor_->cluster()[rank]; }
  uint32_t reg(uint16_t r, unsigned lane = 0, unsigned warp = 0) const {
    return executor_->cta().warps.at(warp).reg(r, lane);
  }
  const Warp& warp(unsigned w = 0) const { return executor_->cta().warps.at(w); }
  const Cta& cta() const { return executor_->cta(); }
  const Program& program() const { return program_; }
  ConstBank& bank() { return bank_; }
  GlobalMemory& memory() { return memory_; }

 private:
  sass::Function f_;
  ConstBank bank_;
  GlobalMemory memory_;
  Program program_;
  std::unique_ptr<Executor> executor_;
};

}  // namespace sassim::emu::testing
