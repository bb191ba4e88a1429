// Helpers of the tests of Hopper's asynchronous operations in the executor: uniform
// address operands, an mbarrier set up by every lane, a tensor map parameter, and the
// error a run ends with.
#pragma once

#include <cstring>
#include <string>

#include "ground/error.h"
#include "tests/emu/emu_rig.h"
#include "traces/emu/tensor_map.h"

namespace sassim::emu::testing {

inline sass::Operand UM(uint32_t ureg) {  // [URn]
  sass::Operand o;
  o.kind = sass::OperandKind::kMemory;
  o.mem.ureg.index = ureg;
  o.mem.ureg.uniform = true;
  o.text = named("[UR", ureg) + "]";
  return o;
}

inline constexpr uint32_t kBar = 0x100;
// mbarrier.init with one expected arrival, as nvcc writes it: (2^20 - 1) << 1 and << 11.
inline constexpr int64_t kInitLo = 0x1ffffe;
inline constexpr int64_t kInitHi = 0x7ffff800;

// UR4:UR5 = the init value, UR6 = the barrier; then SYNCS.EXCH.64 by every lane.
inline void init_barrier(Rig& rig) {
  rig.add("UMOV", {UR(4), I(kInitLo)})
      .add("UMOV", {UR(5), I(kInitHi)})
      .add("UMOV", {UR(6), I(kBar)})
      .add("SYNCS.EXCH.64", {UR(63), UM(6), UR(4)});
}

// The error a run of one warp (a CTA, or each CTA of a cluster of `cluster`) ends
// with, or "no error".
inline std::string error_of(Rig& rig, Dim3 cluster = {}) {
  try {
    rig.run(32, cluster);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// A tensor map of `shape` over the matrix at `matrix` as the launch's parameter at bank
// offset 0x280; then UR12:UR13 = its generic address (UTMALDG's [UR12]).
inline void tensor_map_in_ur12(Rig& rig, const kernels::TensorMapShape& shape, uint64_t matrix) {
  rig.bank().bytes.assign(0x400, 0);
  encode_tensor_map(shape, matrix,
                    std::span<uint8_t, kTensorMapBytes>(rig.bank().bytes.data() + 0x280, 128));
  const uint64_t map = kParamWindowBase + 0x280;
  rig.add("UMOV", {UR(12), I(static_cast<int64_t>(map & 0xffffffffU))})
      .add("UMOV", {UR(13), I(static_cast<int64_t>(map >> 32))});
}

inline uint16_t shared_u16(const Cta& cta, uint32_t offset) {
  uint16_t v;
  std::memcpy(&v, cta.shared.data() + offset, 2);
  return v;
}

}  // namespace sassim::emu::testing
