// Which of a layer's tensors a captured kernel file touches: shared by the layer capture
// tests (traces/emu/workload/layer_capture.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "traces/emu/state.h"
#include "traces/emu/trace_writer.h"
#include "traces/emu/workload/layer_capture.h"
#include "traces/emu/workload/layer_plan.h"

namespace sassim::emu::workload {

// The tensors a kernel file's global accesses touch: every "0x7f..." address of an
// instruction line (the first lane's, or a TMA copy's first transfer) in a tensor; shared
// memory addresses (below GlobalMemory::kBase) are not counted.
// `outside` counts the addresses in none.
inline std::set<int> touched(const std::filesystem::path& file, const std::vector<uint64_t>& base,
                             const LayerPlan& plan, uint64_t& outside) {
  std::ifstream in(file);
  std::set<int> tensors;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '-' || line[0] == '#') continue;
    std::istringstream words(line);
    for (std::string w; words >> w;) {
      if (w.rfind("0x7f", 0) != 0) continue;
      const uint64_t a = std::stoull(w.substr(2), nullptr, 16);
      if (a < GlobalMemory::kBase) continue;  // a shared-memory address such as 0x7f0
      // The local and shared windows (an mbarrier of another CTA of a cluster).
      if (a >= kTraceLocalBase) continue;
      bool found = false;
      for (size_t t = 0; t < base.size(); ++t) {
        if (a >= base[t] && a < base[t] + plan.tensors[t].bytes) {
          tensors.insert(static_cast<int>(t));
          found = true;
        }
      }
      if (!found) ++outside;
    }
  }
  return tensors;
}

// Each launch of `plan` (kernel-N.traceg in `folder`, N from 1) touches exactly the tensors
// it is bound to, and no address outside the layer's tensors.
inline void expect_launches_touch_their_tensors(const LayerPlan& plan,
                                                const std::filesystem::path& folder) {
  const std::vector<uint64_t> base = tensor_addresses(plan);
  for (size_t i = 0; i < plan.launches.size(); ++i) {
    SCOPED_TRACE(plan.launches[i].step);
    std::set<int> bound;
    for (const Binding& b : plan.launches[i].bindings)
      if (b.tensor >= 0) bound.insert(b.tensor);
    uint64_t outside = 0;
    const auto file = folder / ("kernel-" + std::to_string(i + 1) + ".traceg");
    EXPECT_EQ(touched(file, base, plan, outside), bound);
    EXPECT_EQ(outside, 0U);
  }
}

}  // namespace sassim::emu::workload
