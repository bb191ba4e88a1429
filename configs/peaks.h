#pragma once
// Peak rates of a GPU config: the speed of light each hardware limit of a kernel is
// measured against (sim/speed_of_light.h, the roofline ceilings). Every figure comes
// from the config's own parameters (units per SM, issue width, tensor-form intervals,
// cache and DRAM bandwidths, SM count, clocks); this is the one place they are computed.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "configs/sassim_config.pb.h"
#include "isa/opcode.h"

namespace sassim::config {

// isa::MmaType values (kNone .. kBinary).
inline constexpr std::size_t kNumMmaTypes = 9;

struct GpuPeaks {
  // Dense matrix FLOP/s by operand type (isa::MmaType), 0 where the config describes no
  // dense form of that type in sm.tensor_ops (it then has no peak to measure against).
  // Per form: 2 x M x N x K / initiation interval, times sub-cores for warp-level forms
  // (one tensor unit each) or once for warpgroup forms (the SM's units together; the
  // best N of an entry covering every N), times SMs and the core clock. The highest of
  // the type's forms. Sparse (.SP) forms are left out: their logical FLOPs run at the
  // dense rate of twice the work, so a sparse kernel may pass 100%.
  std::array<double, kNumMmaTypes> tensor_flops_per_second{};
  // FP32 (FFMA = 2 FLOPs a lane), FP16 (HFMA2 = 4) and FP64 (DFMA = 2): SMs x sub-cores
  // x 32 / sm.units.<unit>.initiation_interval_cycles lanes x FLOPs x core clock.
  double fp32_flops_per_second = 0, fp16_flops_per_second = 0, fp64_flops_per_second = 0;
  // Warp instructions per second into each integer pipe (int_alu, int_mad): SMs x
  // sub-cores / initiation interval x core clock.
  double int_alu_insts_per_second = 0, int_mad_insts_per_second = 0;
  // Warp instructions issued per second: SMs x sub-cores (one scheduler each, one
  // instruction a cycle) x core clock.
  double issue_warp_insts_per_second = 0;
  // L1 / shared data path: SMs x l1.data_bytes_per_cycle x core clock.
  double l1_bytes_per_second = 0;
  // L2 slices' data bandwidth: l2.slices x l2.slice_bytes_per_cycle x clocks.l2_mhz.
  double l2_bytes_per_second = 0;
  // DRAM pins: dram_peak_bytes_per_second (configs/derived.h).
  double dram_bytes_per_second = 0;
};

// The peaks of a validated config (load_config's result).
GpuPeaks gpu_peaks(const GpuConfig& config);

// The peaks as named rows, as results files hold them (/peaks, docs/RESULTS.md):
// tensor_<type> (FLOP/s, only the operand types with a peak), fp32, fp16, fp64
// (FLOP/s), int_alu, int_mad, issue (warp instructions/s), l1, l2, dram (bytes/s).
struct PeakRow {
  std::string name;
  double value = 0;
  std::string unit;
};
std::vector<PeakRow> peak_rows(const GpuPeaks& peaks);

// Dense FLOPs per SM per core cycle of one sm.tensor_ops entry, 0 for a sparse form or
// an entry that is not a matrix form of `arch`; `type` is set to the form's operand type.
double tensor_form_flops_per_sm_cycle(const TensorTiming& entry, std::uint32_t sub_cores,
                                      isa::Arch arch, isa::MmaType& type);

}  // namespace sassim::config
