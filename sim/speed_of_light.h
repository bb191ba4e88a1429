#pragma once
// Speed of light of a kernel, as Nsight Compute's section of that name: what the kernel
// achieved at each hardware limit as a percentage of the config's peak there
// (configs/peaks.h), the limit that binds and the kernel's arithmetic intensity.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "configs/peaks.h"

namespace sassim::sim {

// The limits, in the order bound_by breaks ties.
enum class SolLimit : std::uint8_t { kTensor, kFp32, kFp16, kFp64, kInt, kIssue, kL1, kL2, kDram };
inline constexpr std::size_t kNumSolLimits = 9;
// "tensor", "fp32", "fp16", "fp64", "int", "issue", "l1", "l2", "dram".
std::string_view sol_limit_name(SolLimit limit);
// The limit of a name; sassim::Error naming the known ones for any other.
SolLimit sol_limit_from_name(std::string_view name);

// What a kernel did, summed over the GPU.
struct SolWork {
  double seconds = 0;  // simulated time: cycles at the core clock
  std::array<double, config::kNumMmaTypes> tensor_flops{};  // by isa::MmaType
  double fp32_flops = 0, fp16_flops = 0, fp64_flops = 0;
  double int_alu_insts = 0, int_mad_insts = 0;  // warp instructions
  double warp_insts = 0;
  double l1_bytes = 0;  // bytes charged to the L1 / shared data paths
  double l2_bytes = 0;  // bytes charged to the L2 slices' data bandwidth
  double dram_bytes = 0;
};

struct SpeedOfLight {
  // Percent of peak by SolLimit:
  //   tensor: the sum over operand types of FLOPs / (type's peak x seconds), the time
  //           the tensor pipes would need at their peak rates (types without a peak are
  //           left out and named by tensor_unpriced);
  //   fp32, fp16, fp64: FLOPs / (peak FLOP/s x seconds);
  //   int: the busier of the int_alu and int_mad pipes, warp instructions / (peak x s);
  //   issue: warp instructions / issue slots;
  //   l1, l2, dram: bytes / (peak bytes/s x seconds).
  std::array<double, kNumSolLimits> pct{};
  // Percent of each operand type's dense peak, by isa::MmaType; NaN where the config
  // has no peak for the type (kNone is always NaN).
  std::array<double, config::kNumMmaTypes> tensor_pct{};
  // Operand types whose FLOPs had no peak to count against (bit per isa::MmaType).
  std::uint32_t tensor_unpriced = 0;
  // The limit of the highest percentage (ties: the first in SolLimit order); kNone-like
  // `bound` false when every percentage is 0 (nothing ran).
  SolLimit bound_by = SolLimit::kIssue;
  bool bound = false;
  // FLOPs of every kind (tensor, FP32, FP16, FP64) per DRAM byte; +inf with FLOPs and
  // no DRAM traffic, NaN with neither.
  double arithmetic_intensity = 0;
  // "tensor", ..., or "none" when nothing ran.
  std::string_view bound_by_name() const { return bound ? sol_limit_name(bound_by) : "none"; }
};

// The numeric result columns of a kernel's speed of light, in order (after `bound_by`,
// the string column): sol_<limit>_pct per SolLimit, sol_tensor_<type>_pct per operand
// type (f16 .. binary), arithmetic_intensity. Results files and `sassim run --format
// json|csv` name them so (docs/RESULTS.md).
inline constexpr std::size_t kNumSolColumns = kNumSolLimits + config::kNumMmaTypes - 1 + 1;
struct SolColumn {
  std::string name;
  double value = 0;
};
std::array<SolColumn, kNumSolColumns> sol_columns(const SpeedOfLight& sol);

// Percentages of `work` against `peaks`; all 0 (bound false) when seconds is 0.
SpeedOfLight speed_of_light(const SolWork& work, const config::GpuPeaks& peaks);

// The same work done at another time: every percentage times `scale` (= the old time /
// the new time), then sol_issue_pct replaced by `issue_pct` (the launch's own warp
// instructions over its issue slots) and bound_by found again. For a launch estimated
// from another of its class (sim/kernel_sampler.h).
SpeedOfLight rescaled(const SpeedOfLight& sol, double scale, double issue_pct);

}  // namespace sassim::sim
