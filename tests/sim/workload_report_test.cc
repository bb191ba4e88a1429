// The figures per token of a replayed workload (sim/workload_report.h): the span from the
// first start to the last end, DRAM bytes and energy over the tokens, the model's layers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/workload_report.h"

namespace sassim::sim {
namespace {

KernelResult kernel(std::uint64_t start, std::uint64_t cycles, double dram_bytes) {
  KernelResult r;
  r.start_cycle = start;
  r.cycles = cycles;
  r.seconds = static_cast<double>(cycles) / 2e9;  // 2 GHz
  r.dram_bytes = dram_bytes;
  return r;
}

const traces::WorkloadInfo kDecode{.workload = "dense-layer",
                                   .phase = "decode",
                                   .batch = 4,
                                   .context = 4096,
                                   .tokens = 4,
                                   .model_layers = 32};

TEST(WorkloadReport, SpanBytesAndTokens) {
  // Kernels at [1000, 3000) and [3500, 9000): 8,000 cycles at 2 GHz = 4 us, the gap
  // between them included; 12 MB over 4 tokens.
  const std::vector<KernelResult> results = {kernel(1000, 2000, 4e6), kernel(3500, 5500, 8e6)};
  const WorkloadFigures f = workload_figures(kDecode, results);
  EXPECT_DOUBLE_EQ(f.layer_seconds, 4e-6);
  EXPECT_DOUBLE_EQ(f.layer_tokens_per_s, 1e6);
  EXPECT_DOUBLE_EQ(f.dram_bytes_per_token, 3e6);
  EXPECT_TRUE(std::isnan(f.energy_j_per_token));
  EXPECT_DOUBLE_EQ(f.model_seconds, 128e-6);
  EXPECT_DOUBLE_EQ(f.model_tokens_per_s, 4 / 128e-6);
}

TEST(WorkloadReport, EnergyPerTokenWhenModelled) {
  std::vector<KernelResult> results = {kernel(0, 1000, 0), kernel(1000, 1000, 0)};
  for (KernelResult& r : results) {
    r.energy.modelled = true;
    r.energy.total_j = 0.5;
  }
  EXPECT_DOUBLE_EQ(workload_figures(kDecode, results).energy_j_per_token, 0.25);
}

TEST(WorkloadReport, PrintedPerPhase) {
  const std::vector<KernelResult> results = {kernel(0, 8000, 12 * 1024 * 1024)};
  traces::WorkloadInfo prefill = kDecode;
  prefill.phase = "prefill";
  auto printed = [&](const traces::WorkloadInfo& info) {
    char* text = nullptr;
    std::size_t size = 0;
    std::FILE* f = open_memstream(&text, &size);
    print_workload_summary(f, info, workload_figures(info, results));
    std::fclose(f);
    std::string s(text, size);
    std::free(text);
    return s;
  };
  EXPECT_EQ(printed(kDecode),
            "workload dense-layer decode: batch 4, context 4096: 4 tokens in 4.0 us (1000000 "
            "tokens/s)\nper token: 3.00 MiB of DRAM traffic\n32 such layers (the layers alone: "
            "no embedding, LM head or sampling): 0.128 ms per decode step, 31250 tokens/s\n");
  EXPECT_NE(printed(prefill).find("0.128 ms to the first token"), std::string::npos);
}

}  // namespace
}  // namespace sassim::sim
