// TMA descriptors as `sassim capture` passes them. A real CUtensorMap is an opaque
// 128-byte object the driver encodes; the executor only needs what it describes, so
// capture writes this layout into the kernel parameter instead (little-endian):
//   0 magic "SASSIMTM", 8 global address, 16 rows, 24 cols (elements),
//   32 row pitch (bytes), 40 element bytes, 44 box rows, 48 box cols, 52 swizzle bytes.
// UTMALDG reads it back through the generic address of the parameter space.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>

#include "kernels/launch.h"

namespace sassim::emu {

inline constexpr uint32_t kTensorMapBytes = 128;
inline constexpr uint64_t kTensorMapMagic = 0x4d544d4953534153ULL;  // "SASSIMTM"

// sm_90 kernels find the generic address of their parameters (constant bank 0 from 0x210)
// in c[0x0][0x198]; capture puts this window there.
inline constexpr uint64_t kParamWindowBase = 0x00007d0000000000ULL;
inline constexpr uint64_t kParamBankOffset = 0x210;
inline constexpr uint64_t kParamPointerOffset = 0x198;

struct TensorMap {
  uint64_t address = 0;
  uint64_t rows = 0;
  uint64_t cols = 0;
  uint64_t pitch = 0;  // bytes from one row to the next
  uint32_t element_bytes = 0;
  uint32_t box_rows = 0;
  uint32_t box_cols = 0;
  uint32_t swizzle_bytes = 0;
};

inline void encode_tensor_map(const kernels::TensorMapShape& shape, uint64_t address,
                              std::span<uint8_t, kTensorMapBytes> out) {
  std::memset(out.data(), 0, out.size());
  auto put = [&](size_t at, auto v) { std::memcpy(out.data() + at, &v, sizeof(v)); };
  put(0, kTensorMapMagic);
  put(8, address);
  put(16, shape.rows);
  put(24, shape.cols);
  put(32, shape.cols * shape.element_bytes);
  put(40, shape.element_bytes);
  put(44, shape.box_rows);
  put(48, shape.box_cols);
  put(52, shape.swizzle_bytes);
}

// A shared-memory address written or read with a swizzle span of 32, 64 or 128 bytes
// (0: none): its 16-byte chunk index takes the XOR of 1, 2 or 3 bits from address bit 7
// on, as TMA writes and wgmma descriptors read (the CUTLASS Swizzle<1..3, 4, 3>).
inline uint64_t swizzle(uint64_t address, uint32_t span_bytes) {
  const uint64_t bits = span_bytes == 128 ? 7 : span_bytes == 64 ? 3 : span_bytes == 32 ? 1 : 0;
  return address ^ (((address >> 7) & bits) << 4);
}

// nullopt when the bytes are not a descriptor capture wrote.
inline std::optional<TensorMap> decode_tensor_map(std::span<const uint8_t> in) {
  if (in.size() < kTensorMapBytes) return std::nullopt;
  auto get = [&](size_t at, auto& v) { std::memcpy(&v, in.data() + at, sizeof(v)); };
  uint64_t magic = 0;
  get(0, magic);
  if (magic != kTensorMapMagic) return std::nullopt;
  TensorMap m;
  get(8, m.address);
  get(16, m.rows);
  get(24, m.cols);
  get(32, m.pitch);
  get(40, m.element_bytes);
  get(44, m.box_rows);
  get(48, m.box_cols);
  get(52, m.swizzle_bytes);
  return m;
}

}  // namespace sassim::emu
