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
#include <map>
#include <string>
#include <vector>

#include "traces/emu/capture.h"
#include "traces/emu/workload/layer_plan.h"
#include "traces/sass/listing.h"
#include "traces/workload_info.h"

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

// A plan executed in pieces: its listings read and its tensors allocated and filled at
// construction, then runs of consecutive launches on that memory. Expert parallelism runs
// every rank to a collective, moves rows between the ranks' memories, and goes on.
class LayerExecutor {
 public:
  // `plan` and `options` must outlive this. Throws sassim::Error naming the launch's step
  // and kernel when a listing is missing.
  LayerExecutor(const LayerPlan& plan, const LayerCaptureOptions& options);
  // Launches [begin, end) in order (kernel-N is launch N - 1 of the plan). Throws
  // sassim::Error naming the launch's step and kernel when the executor fails or (with
  // check) an output differs from its reference; `reports` then holds those done before.
  void run(size_t begin, size_t end, std::vector<LaunchReport>& reports);
  // The bytes of the plan's tensor `index`.
  std::vector<uint8_t>& tensor(int index);

 private:
  const LayerPlan& plan_;
  const LayerCaptureOptions& options_;
  std::map<std::filesystem::path, traces::sass::Listing> listings_;
  DeviceBuffers memory_;
  std::vector<int> allocation_of_tensor_;
};

// What a replay of the plan computes, for workload.txt (one GPU: the plan's tokens).
traces::WorkloadInfo workload_info(const LayerPlan& plan);

// Executes the whole plan (LayerExecutor) and writes workload.txt when it writes a trace.
// Throws as LayerExecutor does; `reports` then holds the launches done before it.
void capture_layer(const LayerPlan& plan, const LayerCaptureOptions& options,
                   std::vector<LaunchReport>& reports);

}  // namespace sassim::emu::workload
