// Address generation and bounds-checked access to the memory spaces, shared by the
// memory and tensor operations.
#pragma once

#include <fmt/format.h>

#include <algorithm>

#include "traces/emu/exec.h"

namespace sassim::emu {

inline uint64_t address(const Warp& w, const MemAddr& m, unsigned lane) {
  uint64_t a = 0;
  if (m.reg != kRowZero) {
    a = w.reg(m.reg, lane);
    if (m.wide) a |= uint64_t{w.reg(static_cast<uint16_t>(m.reg + 1), lane)} << 32;
    a *= m.scale;
  }
  if (m.ureg != kURowZero) {
    a += w.ur[m.ureg];
    if (m.uwide) a += uint64_t{w.ur[m.ureg + 1U]} << 32;
  }
  return a + static_cast<uint64_t>(m.offset);
}

class MemoryAccess {
 public:
  MemoryAccess(ExecContext& ctx, const Inst& inst) : ctx_(ctx), inst_(inst) {}

  uint8_t* global(uint64_t a, uint32_t bytes) {
    if ((a & (bytes - 1)) != 0) misaligned(a, bytes, "global");
    uint8_t* p = ctx_.global.find(a, bytes);
    if (p == nullptr) {
      ctx_.fail(inst_, fmt::format("global address 0x{:x} ({} bytes) is outside every buffer of "
                                   "the launch",
                                   a, bytes));
    }
    return p;
  }
  uint8_t* shared(uint32_t a, uint32_t bytes) { return shared_in(ctx_.cta, a, bytes); }
  // The shared memory of `cta`, this CTA or another of its cluster.
  uint8_t* shared_in(Cta& cta, uint32_t a, uint32_t bytes) {
    if ((a & (bytes - 1)) != 0) misaligned(a, bytes, "shared");
    if (uint64_t{a} + bytes > cta.shared.size()) {
      ctx_.fail(inst_, fmt::format("shared address 0x{:x} ({} bytes) is beyond the {} bytes of "
                                   "shared memory",
                                   a, bytes, cta.shared.size()));
    }
    cta.shared_high = std::max(cta.shared_high, uint64_t{a} + bytes);
    return cta.shared.data() + a;
  }
  uint8_t* local(Warp& w, unsigned lane, uint32_t a, uint32_t bytes) {
    if (uint64_t{a} + bytes > ctx_.local_bytes) {
      ctx_.fail(inst_, fmt::format("local address 0x{:x} ({} bytes) is beyond the {} bytes of "
                                   "local memory per thread",
                                   a, bytes, ctx_.local_bytes));
    }
    if (w.local.empty()) w.local.resize(size_t{ctx_.local_bytes} * 32);
    return w.local.data() + size_t{lane} * ctx_.local_bytes + a;
  }

 private:
  [[noreturn]] void misaligned(uint64_t a, uint32_t bytes, const char* space) {
    ctx_.fail(inst_, fmt::format("misaligned {}-byte {} access at 0x{:x}", bytes, space, a));
  }
  ExecContext& ctx_;
  const Inst& inst_;
};

}  // namespace sassim::emu
