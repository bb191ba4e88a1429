#pragma once
// Locations of the bundled reference traces and a helper that replays one.
#include <filesystem>
#include <string>
#include <vector>

#include "configs/config_loader.h"
#include "sim/gpu.h"
#include "traces/accelsim_reader.h"

namespace sassim::e2e {

struct ReferenceTrace {
  std::string name;
  std::string path;  // relative to the repository root
  std::string preset;
};

inline const std::vector<ReferenceTrace>& reference_traces() {
  static const std::vector<ReferenceTrace> kTraces = {
      {"gtx1080_vectoradd",
       "traces/reference/gtx1080-microgpusim/test-apps/vectoradd/traces/vectoradd-100-32-trace",
       "gtx1080"},
      {"gtx1080_matrixmul",
       "traces/reference/gtx1080-microgpusim/test-apps/matrixmul/traces/matrixmul-32-32-trace",
       "gtx1080"},
      {"turing_vecadd", "traces/reference/rtx-turing-vecadd-v1.2/util/tracer_nvbit/traces/GPU_0",
       "rtx2060"},
      {"v100_bfs", "traces/reference/v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1",
       "v100"},
      {"a100_flashinfer_gemm",
       "traces/reference/a100-flashinfer/test-traces/flashinfer-gemm/traces", "a100"},
      {"a100_flashinfer_prefill",
       "traces/reference/a100-flashinfer/test-traces/flashinfer-prefill/traces", "a100"},
      {"a100_flashinfer_decode",
       "traces/reference/a100-flashinfer/test-traces/flashinfer-singledecode/traces", "a100"},
  };
  return kTraces;
}

inline std::filesystem::path repo_path(const std::string& relative) {
  return std::filesystem::path(SASSIM_SOURCE_DIR) / relative;
}

inline std::vector<sim::KernelResult> replay(const ReferenceTrace& t,
                                             const std::vector<std::string>& overrides = {}) {
  auto workload = traces::open_accelsim_workload(repo_path(t.path));
  sim::Gpu gpu(config::load_config(t.preset, overrides));
  return gpu.run(*workload);
}

}  // namespace sassim::e2e
