#include "configs/peaks.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "configs/derived.h"
#include "ground/error.h"

namespace sassim::config {
namespace {

// The interval of a warpgroup entry covering every N, as sim/exec_timing.h resolves it.
double per_n_interval(const TensorTiming& entry, unsigned n) {
  const double scaled = std::ceil(entry.initiation_interval_cycles_per_n() * n);
  return std::max(static_cast<double>(entry.initiation_interval_cycles()), scaled);
}

}  // namespace

double tensor_form_flops_per_sm_cycle(const TensorTiming& entry, std::uint32_t sub_cores,
                                      isa::Arch arch, isa::MmaType& type) {
  const std::optional<isa::DecodedOpcode> form = isa::OpcodeTable::get(arch).decode(entry.opcode());
  type = isa::MmaType::kNone;
  if (!form || !form->matrix.is_matrix() || form->matrix.m == 0) return 0;
  const isa::MatrixShape& s = form->matrix;
  type = s.type;
  if (s.sparse || entry.initiation_interval_cycles() == 0) return 0;
  const bool per_n =
      entry.has_latency_cycles_per_n() || entry.has_initiation_interval_cycles_per_n();
  if (s.warpgroup && per_n) {
    // wgmma's N runs from 8 to 256 in steps of 8 (PTX ISA, "Matrix shape" of wgmma).
    double best = 0;
    for (unsigned n = 8; n <= 256; n += 8) {
      best = std::max(best, 2.0 * s.m * n * s.k / per_n_interval(entry, n));
    }
    return best;
  }
  const double per_unit = 2.0 * s.m * s.n * s.k / entry.initiation_interval_cycles();
  return s.warpgroup ? per_unit : per_unit * sub_cores;
}

GpuPeaks gpu_peaks(const GpuConfig& config) {
  const std::optional<isa::Arch> arch = isa::arch_from_name(config.arch());
  if (!arch) throw Error(fmt::format("arch = \"{}\": not a known architecture", config.arch()));
  const double clock_hz = config.clocks().core_mhz() * 1e6;
  const double sms = config.num_sms();
  const double sub_cores = config.sm().sub_cores();
  const ExecUnits& units = config.sm().units();
  const auto lanes = [&](const ExecUnitConfig& unit) {
    return sms * sub_cores * 32.0 / unit.initiation_interval_cycles();
  };
  GpuPeaks p;
  for (const TensorTiming& entry : config.sm().tensor_ops()) {
    isa::MmaType type = isa::MmaType::kNone;
    const double per_sm =
        tensor_form_flops_per_sm_cycle(entry, config.sm().sub_cores(), *arch, type);
    double& peak = p.tensor_flops_per_second[static_cast<std::size_t>(type)];
    peak = std::max(peak, per_sm * sms * clock_hz);
  }
  p.tensor_flops_per_second[0] = 0;
  p.fp32_flops_per_second = lanes(units.fp32()) * 2 * clock_hz;
  p.fp16_flops_per_second = lanes(units.fp16()) * 4 * clock_hz;
  p.fp64_flops_per_second = lanes(units.fp64()) * 2 * clock_hz;
  p.int_alu_insts_per_second =
      sms * sub_cores / units.int_alu().initiation_interval_cycles() * clock_hz;
  p.int_mad_insts_per_second =
      sms * sub_cores / units.int_mad().initiation_interval_cycles() * clock_hz;
  p.issue_warp_insts_per_second = sms * sub_cores * clock_hz;
  p.l1_bytes_per_second = sms * config.l1().data_bytes_per_cycle() * clock_hz;
  p.l2_bytes_per_second = static_cast<double>(config.l2().slices()) *
                          config.l2().slice_bytes_per_cycle() * config.clocks().l2_mhz() * 1e6;
  p.dram_bytes_per_second = dram_peak_bytes_per_second(config);
  return p;
}

std::vector<PeakRow> peak_rows(const GpuPeaks& p) {
  std::vector<PeakRow> rows;
  for (std::size_t t = 1; t < kNumMmaTypes; ++t) {
    if (p.tensor_flops_per_second[t] <= 0) continue;
    const std::string_view type = isa::mma_type_name(static_cast<isa::MmaType>(t));
    rows.push_back({fmt::format("tensor_{}", type), p.tensor_flops_per_second[t], "FLOP/s"});
  }
  rows.push_back({"fp32", p.fp32_flops_per_second, "FLOP/s"});
  rows.push_back({"fp16", p.fp16_flops_per_second, "FLOP/s"});
  rows.push_back({"fp64", p.fp64_flops_per_second, "FLOP/s"});
  rows.push_back({"int_alu", p.int_alu_insts_per_second, "warp instructions/s"});
  rows.push_back({"int_mad", p.int_mad_insts_per_second, "warp instructions/s"});
  rows.push_back({"issue", p.issue_warp_insts_per_second, "warp instructions/s"});
  rows.push_back({"l1", p.l1_bytes_per_second, "bytes/s"});
  rows.push_back({"l2", p.l2_bytes_per_second, "bytes/s"});
  rows.push_back({"dram", p.dram_bytes_per_second, "bytes/s"});
  return rows;
}

}  // namespace sassim::config
