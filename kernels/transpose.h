// Matrix transpose, out (cols x rows) = in (rows x cols)^T, row-major FP32, in 32x32
// tiles, each CTA of 32x8 threads moving one tile (each thread 4 elements):
//   transpose_naive:  reads rows, writes columns straight to global memory (uncoalesced
//                     stores);
//   transpose_shared: stages the tile in shared memory float[32][32] so both global
//                     accesses are coalesced; reading a tile column is a 32-way bank
//                     conflict;
//   transpose_padded: the same with float[32][33], conflict-free.
#pragma once

#include <span>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels::transpose {

inline constexpr std::string_view kNaiveKernel = "transpose_naive";
inline constexpr std::string_view kSharedKernel = "transpose_shared";
inline constexpr std::string_view kPaddedKernel = "transpose_padded";
inline constexpr uint32_t kTile = 32;
inline constexpr uint32_t kBlockRows = 8;

struct Problem {
  uint32_t rows = 2048;
  uint32_t cols = 2048;
};

// Values: [ROWS [COLS]], multiples of 32; COLS defaults to ROWS.
Problem parse_problem(ParamValues values);

constexpr Launch launch(std::string_view kernel, const Problem& p) {
  Launch l{
      .kernel = kernel, .grid = {p.cols / kTile, p.rows / kTile}, .block = {kTile, kBlockRows}};
  const uint64_t bytes = uint64_t{p.rows} * p.cols * sizeof(float);
  l.add(buffer_arg("in", bytes, Access::kRead))
      .add(buffer_arg("out", bytes, Access::kWrite))
      .add(u32_arg("rows", p.rows))
      .add(u32_arg("cols", p.cols));
  return l;
}

// out[c * rows + r] = in[r * cols + c].
void reference(const Problem& p, std::span<const float> in, std::span<float> out);

}  // namespace sassim::kernels::transpose
