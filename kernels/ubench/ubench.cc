#include "kernels/ubench/ubench.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace sassim::kernels::ubench {
namespace {

constexpr std::string_view kKernels[] = {
    "ubench_l1_lat",
    "ubench_l1_lat_cta",
    "ubench_l2_lat",
    "ubench_mem_lat",
    "ubench_mem_lat_cta",
    "ubench_shared_lat",
    "ubench_l1_bw_32f",
    "ubench_l1_bw_32f_c",
    "ubench_l1_bw_64f",
    "ubench_l1_bw_64f_c",
    "ubench_l1_bw_128",
    "ubench_l1_bw_32f_unroll",
    "ubench_l1_bw_32f_unroll_large",
    "ubench_l1_bw_32f_unroll_large_serial",
    "ubench_l2_bw_32f",
    "ubench_l2_bw_64f",
    "ubench_l2_bw_32f_sm",
    "ubench_l2_bw_64f_sm",
    "ubench_mem_bw",
    "ubench_shared_bw",
    "ubench_l1_shared_bw",
    "ubench_l1_shared_bw_ring",
    "ubench_shared_bank_conflicts",
    "ubench_shared_bank_conflicts_padded",
    "ubench_max_iops_int32",
};

constexpr uint64_t kClockBytesPerThread = 2 * sizeof(uint64_t);

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// Value i at index i (as the float or double type T), `count` of them.
template <typename T>
std::vector<uint8_t> iota_bytes(uint64_t count) {
  std::vector<T> values(count);
  for (uint64_t i = 0; i < count; ++i) values[i] = static_cast<T>(i);
  return bytes_of(values);
}

// One thread per CTA for the single-thread kernels, else `threads` x the grid.
Launch shape(std::string_view kernel, uint32_t blocks, uint32_t threads) {
  return Launch{.kernel = kernel, .grid = {blocks}, .block = {threads}};
}

Launch timed(Launch l, uint64_t sink_bytes) {
  l.add(buffer_arg("clocks", l.threads() * kClockBytesPerThread, Access::kWrite));
  if (sink_bytes != 0) l.add(buffer_arg("sink", l.threads() * sink_bytes, Access::kWrite));
  return l;
}

}  // namespace

std::span<const std::string_view> kernels() {
  return kKernels;
}

bool is_kernel(std::string_view kernel) {
  return std::find(std::begin(kKernels), std::end(kKernels), kernel) != std::end(kKernels);
}

Problem parse_problem(std::string_view kernel, ParamValues values) {
  if (!is_kernel(kernel)) {
    throw std::invalid_argument("unknown microbenchmark kernel '" + std::string(kernel) + "'");
  }
  Problem p;
  if (kernel == "ubench_l2_bw_32f" || kernel == "ubench_l2_bw_64f") {
    require_at_most(values, 2, kernel);
    p.blocks = param_u32(values, 0, 160, "BLOCKS");
    p.repeats = param_u32(values, 1, 512, "REPEATS");
  } else if (is_l2_bw_sm(kernel)) {
    require_at_most(values, 1, kernel);
    p.blocks = param_u32(values, 0, 80, "BLOCKS");
  } else if (kernel == "ubench_mem_bw") {
    require_at_most(values, 2, kernel);
    p.blocks = param_u32(values, 0, 80, "BLOCKS");
    p.size = param_u32(values, 1, 2 * 6 * 1024 * 1024 / 4, "FLOATS");
    require_multiple(p.size, 4, "FLOATS");
  } else if (kernel == "ubench_mem_lat" || kernel == "ubench_mem_lat_cta") {
    const bool cta = kernel == "ubench_mem_lat_cta";
    require_at_most(values, cta ? 2 : 1, kernel);
    if (cta) p.blocks = param_u32(values, 0, 80, "BLOCKS");
    p.size = param_u32(values, cta ? 1 : 0, 2 * 6 * 1024 * 1024 / 8, "ENTRIES");
    if (p.size < 2 * kMemLatChasers) throw std::invalid_argument("ENTRIES must be at least 8");
    // The record's program links the last entries to bytes a chase must not reach.
    if (!cta && p.size < kMemLatLoads + 2 * kMemLatChasers) {
      throw std::invalid_argument("ENTRIES must be at least " +
                                  std::to_string(kMemLatLoads + 2 * kMemLatChasers) +
                                  " (the chase reads the first 32768 entries)");
    }
  } else {
    require_at_most(values, 0, kernel);
  }
  return p;
}

Launch launch(std::string_view kernel, const Problem& p) {
  const uint64_t u64 = sizeof(uint64_t);
  const uint64_t f32 = sizeof(float);
  if (kernel == "ubench_l1_lat") {
    Launch l = shape(kernel, 1, kL1LatThreads);
    l.add(buffer_arg("ring", kL1LatEntries * u64, Access::kReadWrite));
    return timed(l, u64);
  }
  if (kernel == "ubench_l1_lat_cta" || kernel == "ubench_l2_lat") {
    const bool l1 = kernel == "ubench_l1_lat_cta";
    Launch l = shape(kernel, 1, l1 ? kL1BwThreads : 32);
    l.add(buffer_arg("ring", (l1 ? kL1LatCtaEntries : kL2LatEntries) * u64, Access::kReadWrite));
    return timed(l, u64);
  }
  if (kernel == "ubench_mem_lat" || kernel == "ubench_mem_lat_cta") {
    const bool cta = kernel == "ubench_mem_lat_cta";
    Launch l = shape(kernel, p.blocks, cta ? 1024 : kMemLatThreads);
    l.add(buffer_arg("ring", p.size * u64, Access::kReadWrite)).add(u32_arg("entries", p.size));
    return timed(l, u64);
  }
  if (kernel == "ubench_shared_lat") {
    Launch l = shape(kernel, 1, 1);
    l.add(u32_arg("stride", 1));
    return timed(l, u64);
  }
  if (kernel.starts_with("ubench_l1_bw_64f")) {
    Launch l = shape(kernel, 1, kL1BwThreads);
    // 32 doubles of slack: the second load of the last window reads past the wrap.
    l.add(buffer_arg("array", (kL1BwDoubles + 32) * sizeof(double), Access::kRead));
    return timed(l, sizeof(double));
  }
  if (kernel.starts_with("ubench_l1_bw_32f") || kernel == "ubench_l1_bw_128") {
    const bool large = kernel.starts_with("ubench_l1_bw_32f_unroll_large");
    Launch l = shape(kernel, 1, kL1BwThreads);
    // ubench_l1_bw_32f reads up to 96 floats past its wrap.
    const uint64_t floats =
        large ? kL1BwLargeFloats
              : kL1BwFloats +
                    (kernel == "ubench_l1_bw_32f" || kernel == "ubench_l1_bw_32f_c" ? 96 : 0);
    l.add(buffer_arg("array", floats * f32, Access::kRead));
    return timed(l, f32);
  }
  if (kernel == "ubench_l2_bw_32f" || kernel == "ubench_l2_bw_64f") {
    const uint64_t element = kernel == "ubench_l2_bw_32f" ? f32 : sizeof(double);
    Launch l = shape(kernel, p.blocks, kL2BwThreads);
    const uint64_t elements = l.threads() + uint64_t{p.repeats} * 32;
    if (elements > UINT32_MAX)
      throw std::invalid_argument("BLOCKS x 1024 + REPEATS x 32 must fit 32 bits");
    l.add(buffer_arg("array", elements * element, Access::kRead))
        .add(u32_arg("elements", static_cast<uint32_t>(elements)))
        .add(u32_arg("repeats", p.repeats));
    return timed(l, element);
  }
  if (is_l2_bw_sm(kernel)) {
    const uint64_t element = kernel == "ubench_l2_bw_32f_sm" ? f32 : sizeof(double);
    Launch l = shape(kernel, p.blocks, kL2BwThreads);
    const uint64_t elements = l.threads() + uint64_t{kL2BwRepeats} * 32;
    l.add(buffer_arg("array", elements * element, Access::kRead));
    return timed(l, element);
  }
  if (kernel == "ubench_mem_bw") {
    Launch l = shape(kernel, p.blocks, kMemBwThreads);
    const uint64_t bytes = uint64_t{p.size} * f32;
    l.add(buffer_arg("a", bytes, Access::kRead))
        .add(buffer_arg("b", bytes, Access::kRead))
        .add(buffer_arg("c", bytes, Access::kWrite))
        .add(buffer_arg("d", bytes, Access::kRead))
        .add(buffer_arg("e", bytes, Access::kRead))
        .add(buffer_arg("f", bytes, Access::kRead))
        .add(u32_arg("floats", p.size));
    return timed(l, 0);
  }
  if (kernel == "ubench_shared_bw") return timed(shape(kernel, 1, 1024), sizeof(uint32_t));
  if (kernel == "ubench_l1_shared_bw" || kernel == "ubench_l1_shared_bw_ring") {
    Launch l = shape(kernel, 1, 1024);
    l.add(buffer_arg("ring", kL1SharedRingWords * sizeof(uint32_t), Access::kRead));
    if (kernel == "ubench_l1_shared_bw") l.add(u32_arg("stride", 1024));
    return timed(l, sizeof(uint32_t));
  }
  if (is_transpose(kernel)) {
    constexpr uint32_t tiles = kBankMatrix / kBankTile;
    Launch l{.kernel = kernel, .grid = {tiles, tiles}, .block = {kBankTile, kBankRows}};
    const uint64_t bytes = uint64_t{kBankMatrix} * kBankMatrix * f32;
    l.add(buffer_arg("out", bytes, Access::kWrite))
        .add(buffer_arg("in", bytes, Access::kRead))
        .add(u32_arg("width", kBankMatrix))
        .add(u32_arg("height", kBankMatrix));
    return l;
  }
  if (kernel == "ubench_max_iops_int32") {
    Launch l = shape(kernel, 1, kIopsThreads);
    l.add(u32_arg("a", 3)).add(u32_arg("b", 5));
    return timed(l, sizeof(uint32_t));
  }
  throw std::invalid_argument("unknown microbenchmark kernel '" + std::string(kernel) + "'");
}

bool is_l2_bw_sm(std::string_view kernel) {
  return kernel == "ubench_l2_bw_32f_sm" || kernel == "ubench_l2_bw_64f_sm";
}

bool is_transpose(std::string_view kernel) {
  return kernel == "ubench_shared_bank_conflicts" ||
         kernel == "ubench_shared_bank_conflicts_padded";
}

Launch describe_launch(std::string_view kernel, ParamValues values) {
  return launch(kernel, parse_problem(kernel, values));
}

std::vector<uint8_t> initial_contents(const Launch& l, uint32_t arg_index) {
  const Arg& arg = l.arguments()[arg_index];
  if (arg.kind != ArgKind::kBuffer || arg.access == Access::kWrite) return {};
  if (arg.name == "array") {
    // The record's program fills and copies 32768 floats of the span its loop reads.
    if (l.kernel == "ubench_l1_bw_32f_unroll_large") return iota_bytes<float>(kL1BwLargeWarmFloats);
    return l.kernel.starts_with("ubench_l1_bw_64f") || l.kernel.starts_with("ubench_l2_bw_64f")
               ? iota_bytes<double>(arg.size_bytes / sizeof(double))
               : iota_bytes<float>(arg.size_bytes / sizeof(float));
  }
  if (l.kernel == "ubench_mem_bw" || is_transpose(l.kernel)) {
    return iota_bytes<float>(arg.size_bytes / sizeof(float));
  }
  if (l.kernel == "ubench_l1_shared_bw" || l.kernel == "ubench_l1_shared_bw_ring") {
    // Index ring: entry i holds (i + stride + 1) mod size; the record's program copies
    // the first kL1SharedCopiedWords entries only.
    const uint32_t copied =
        l.kernel == "ubench_l1_shared_bw" ? kL1SharedCopiedWords : kL1SharedRingWords;
    std::vector<uint32_t> ring(copied);
    for (uint32_t i = 0; i < copied; ++i) {
      ring[i] = (i + kL1SharedRingStride + 1) % kL1SharedRingWords;
    }
    return bytes_of(ring);
  }
  return {};  // address rings: built by the kernel itself
}

void transpose_reference(std::span<const float> in, std::span<float> out) {
  for (uint32_t y = 0; y < kBankMatrix; ++y) {
    for (uint32_t x = 0; x < kBankMatrix; ++x) out[x * kBankMatrix + y] = in[y * kBankMatrix + x];
  }
}

}  // namespace sassim::kernels::ubench
