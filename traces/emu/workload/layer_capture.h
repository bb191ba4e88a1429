// Executes a LayerPlan (layer_plan.h): every tensor allocated once in one device memory
// and filled as the plan says, then each launch's SASS run in order on that memory, its
// arguments pointing at the layer's tensors, writing kernel-1.. kernel-N of one trace
// folder (one kernelslist.g, stream 0) and its workload.txt (traces/workload_info.h)
// and, with `check`, comparing each launch's outputs with its CPU reference on the inputs
// it read (layer_check.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "traces/emu/capture.h"
#include "traces/emu/workload/layer_plan.h"

namespace sassim::emu::workload {

struct LayerCaptureOptions {
  std::filesystem::path trace_folder;  // empty: execute without writing a trace
  traces::Compression compression = traces::Compression::kZstd;
  std::filesystem::path listings;  // the folder holding sm_XY/KERNEL.sass
  bool check = false;
  // Called after every CTA: (launch index, CTAs done, CTAs of the launch).
  std::function<void(size_t, uint64_t, uint64_t)> progress;
};

struct LaunchReport {
  std::filesystem::path listing;
  CaptureResult result;
  double seconds = 0;
  std::string check;  // the check's message (empty without --check)
};

// The listing of `launch`: LISTINGS/FOLDER/KERNEL.sass.
std::filesystem::path listing_path(const std::filesystem::path& listings,
                                   const PlannedLaunch& launch);

// The device address every tensor of `plan` gets: allocated in the plan's order from
// GlobalMemory::kBase (what capture_layer's trace shows).
std::vector<uint64_t> tensor_addresses(const LayerPlan& plan);

// Throws sassim::Error naming the launch's step and kernel when a listing is missing,
// the executor fails, or (with check) an output differs from its reference; `reports`
// then holds the launches done before it.
void capture_layer(const LayerPlan& plan, const LayerCaptureOptions& options,
                   std::vector<LaunchReport>& reports);

}  // namespace sassim::emu::workload
