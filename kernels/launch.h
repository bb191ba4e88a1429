// How one kernel of the suite is launched: grid, block, dynamic shared memory and its
// parameters in order, with the size of every buffer. Plain C++ shared by the CUDA host
// programs (kernels/*.cu), the CPU references and whatever executes the kernels' SASS.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <string_view>

namespace sassim::kernels {

struct Dim3 {
  uint32_t x = 1;
  uint32_t y = 1;
  uint32_t z = 1;
  constexpr uint64_t count() const { return uint64_t{x} * y * z; }
};

// How a parameter is passed: a device buffer (its 8-byte pointer), a 4-byte scalar, or
// a 128-byte TMA descriptor (CUtensorMap, passed by value as a __grid_constant__).
enum class ArgKind : uint8_t { kBuffer, kU32, kF32, kTensorMap };
enum class Access : uint8_t { kNone, kRead, kWrite, kReadWrite };

// What a TMA descriptor describes: a row-major matrix of `rows` x `cols` elements
// (rows `cols x element_bytes` bytes apart) copied in boxes of box_rows x box_cols,
// written into shared memory with the given swizzle span (0, 32, 64 or 128 bytes).
struct TensorMapShape {
  uint64_t rows = 0;
  uint64_t cols = 0;
  uint32_t element_bytes = 0;
  uint32_t box_rows = 0;
  uint32_t box_cols = 0;
  uint32_t swizzle_bytes = 0;
};

struct Arg {
  std::string_view name;
  ArgKind kind = ArgKind::kU32;
  // Buffer or tensor map: the bytes of the buffer it points at or describes.
  // Scalars: 4.
  uint64_t size_bytes = 0;
  Access access = Access::kNone;
  // Scalars: the value's bits (an f32 as its IEEE bit pattern).
  uint32_t value_bits = 0;
  TensorMapShape map{};  // tensor maps only
};

inline constexpr uint32_t kMaxArgs = 10;  // spec_verify_attention takes 9

struct Launch {
  std::string_view kernel;
  Dim3 grid;
  Dim3 block;
  uint32_t dynamic_shared_bytes = 0;
  Dim3 cluster{1, 1, 1};  // thread block cluster (sm_90, __cluster_dims__); 1 x 1 x 1: none
  std::array<Arg, kMaxArgs> args{};
  uint32_t arg_count = 0;

  constexpr uint64_t threads() const { return grid.count() * block.count(); }
  constexpr std::span<const Arg> arguments() const { return {args.data(), arg_count}; }
  constexpr Launch& add(const Arg& arg) {
    args.at(arg_count) = arg;
    ++arg_count;
    return *this;
  }
};

constexpr Arg buffer_arg(std::string_view name, uint64_t size_bytes, Access access) {
  return Arg{name, ArgKind::kBuffer, size_bytes, access, 0};
}
constexpr Arg tensor_map_arg(std::string_view name, const TensorMapShape& map) {
  return Arg{name, ArgKind::kTensorMap, map.rows * map.cols * map.element_bytes, Access::kRead, 0,
             map};
}
constexpr Arg u32_arg(std::string_view name, uint32_t value) {
  return Arg{name, ArgKind::kU32, 4, Access::kNone, value};
}
constexpr Arg f32_arg(std::string_view name, float value) {
  return Arg{name, ArgKind::kF32, 4, Access::kNone, std::bit_cast<uint32_t>(value)};
}

constexpr uint32_t ceil_div(uint64_t value, uint32_t divisor) {
  return static_cast<uint32_t>((value + divisor - 1) / divisor);
}

}  // namespace sassim::kernels
