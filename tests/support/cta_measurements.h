#pragma once
// CTA turnaround: how often an SM that holds one CTA at a time starts a new one, when
// each CTA is a short kernel body (each thread stores one 8-byte value and exits).
// This is the shape of the RRZE gpu-benches "gpu-stream" init kernel at one CTA per
// SM, whose bandwidth at small blocks is set by the CTA turnaround, not by memory.
#include <cstdint>
#include <span>
#include <string>

#include "configs/sassim_config.pb.h"

namespace sassim::measure {

// `ctas` CTAs of `threads` threads with `shmem` bytes of shared memory each; every
// thread computes its index (S2R, IMAD, ISETP, BRA), stores 8 bytes of a contiguous
// array (STG.E.64) and exits.
std::string store_once_trace(std::uint32_t ctas, std::uint32_t threads, std::uint32_t shmem,
                             int binary_version);

// Core cycles between two CTAs of one SM in the steady state, with one CTA per SM (its
// shared memory the largest a CTA may take): the cycle difference between a grid of
// 16 and one of 8 CTAs per SM, divided by 8.
double cta_turnaround_cycles(const config::GpuConfig& config, std::uint32_t threads);

// The turnaround implied by a bandwidth measurement of that kernel: `gbps` (GB/s) over
// `sms` SMs each holding one CTA of `threads` threads storing 8 bytes per thread, at
// `core_mhz`.
double turnaround_from_bandwidth(double gbps, std::uint32_t sms, std::uint32_t threads,
                                 double core_mhz);

// One measurement of that kernel at one CTA per SM (the init column of
// ../shared/reference-traces/gpu-benches-rrze/gpu-stream/<file>).
struct StreamInitPoint {
  const char* preset;
  const char* part;  // the measured GPU
  const char* file;  // gpu-stream result file
  std::uint32_t sms;
  double mhz;  // clock under load (the same repository's gpu-latency samples)
  std::uint32_t threads;
  double gbps;
  bool calibration;  // sets the preset's cta_launch_latency_cycles; the others are checks
  double turnaround() const { return turnaround_from_bandwidth(gbps, sms, threads, mhz); }
};
std::span<const StreamInitPoint> stream_init_points();

// An empty kernel (every warp only exits), `ctas` CTAs of `threads` threads: its cycles
// on `config` with the SM clock at `core_mhz` (the L2's with it, as the presets tie them).
double empty_kernel_cycles(const config::GpuConfig& config, std::uint32_t ctas,
                           std::uint32_t threads, double core_mhz);

// Nsight Compute's cycle window (gpc__cycles_elapsed.avg) of such a kernel on a real GPU
// (kernels/probes/launch_window.cu, rows launch_window#N of kernels/ubench/hw_h200.csv):
// the mean of the measurements at each clock control.
struct EmptyKernelPoint {
  const char* preset;
  const char* clock_control;  // "base" (locked by ncu) or "none"
  std::uint32_t ctas, threads;
  double mhz;     // mean measured SM clock
  double cycles;  // mean measured window
  int samples;
  bool calibration;  // sets the preset's grid_launch_*; the others are checks
};
std::span<const EmptyKernelPoint> empty_kernel_points();

}  // namespace sassim::measure
