// The host side of the microbenchmark programs: buffers and scalars from the kernel's
// Launch description (ubench.h), inputs from initial_contents, one launch through
// cudaLaunchKernel, and the timed cycles (max stop - min start over all threads).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/cuda_host.cuh"
#include "kernels/ubench/ubench.h"

namespace sassim::kernels::ubench {

struct KernelEntry {
  std::string_view name;
  const void* function;
};

inline bool run_microbenchmark(std::span<const KernelEntry> entries, std::string_view kernel,
                               ParamValues values) {
  const auto it = std::find_if(entries.begin(), entries.end(),
                               [&](const KernelEntry& e) { return e.name == kernel; });
  if (it == entries.end()) throw std::runtime_error("kernel not in this program");
  const Launch config = describe_launch(kernel, values);
  const auto args = config.arguments();
  std::vector<void*> pointers(args.size(), nullptr);
  std::vector<uint32_t> scalars(args.size(), 0);
  std::vector<void*> params(args.size(), nullptr);
  for (uint32_t i = 0; i < args.size(); ++i) {
    if (args[i].kind == ArgKind::kBuffer) {
      SASSIM_CUDA_CHECK(cudaMalloc(&pointers[i], args[i].size_bytes));
      SASSIM_CUDA_CHECK(cudaMemset(pointers[i], 0, args[i].size_bytes));
      const std::vector<uint8_t> init = initial_contents(config, i);
      if (!init.empty()) {
        SASSIM_CUDA_CHECK(
            cudaMemcpy(pointers[i], init.data(), init.size(), cudaMemcpyHostToDevice));
      }
      params[i] = &pointers[i];
    } else {
      scalars[i] = args[i].value_bits;
      params[i] = &scalars[i];
    }
  }
  print_launch(config);
  SASSIM_CUDA_CHECK(cudaLaunchKernel(it->function, to_dim3(config.grid), to_dim3(config.block),
                                     params.data(), config.dynamic_shared_bytes, nullptr));
  finish_launch();

  bool ok = true;
  for (uint32_t i = 0; i < args.size(); ++i) {
    if (args[i].kind != ArgKind::kBuffer) continue;
    if (args[i].name == "clocks") {
      std::vector<uint64_t> clocks(args[i].size_bytes / sizeof(uint64_t));
      SASSIM_CUDA_CHECK(
          cudaMemcpy(clocks.data(), pointers[i], args[i].size_bytes, cudaMemcpyDeviceToHost));
      uint64_t start = UINT64_MAX, stop = 0;
      for (size_t t = 0; t + 1 < clocks.size(); t += 2) {
        if (clocks[t + 1] == 0) continue;  // a thread that times nothing
        start = std::min(start, clocks[t]);
        stop = std::max(stop, clocks[t + 1]);
      }
      std::printf("%.*s: %llu cycles timed\n", static_cast<int>(kernel.size()), kernel.data(),
                  static_cast<unsigned long long>(stop - start));
    }
    if (args[i].name == "out") {
      const auto input =
          std::find_if(args.begin(), args.end(), [](const auto& a) { return a.name == "in"; });
      if (input == args.end()) throw std::runtime_error("transpose without an 'in' buffer");
      std::vector<float> in(kBankMatrix * kBankMatrix), want(in.size()), got(in.size());
      SASSIM_CUDA_CHECK(cudaMemcpy(in.data(), pointers[input - args.begin()], in.size() * 4,
                                   cudaMemcpyDeviceToHost));
      SASSIM_CUDA_CHECK(cudaMemcpy(got.data(), pointers[i], in.size() * 4, cudaMemcpyDeviceToHost));
      transpose_reference(in, want);
      ok = check_close(got, want, 0, 0, kernel);
    }
  }
  for (void* p : pointers) cudaFree(p);
  return ok;
}

inline int microbenchmark_main(int argc, char** argv, std::span<const KernelEntry> entries) {
  std::vector<std::string_view> names;
  for (const KernelEntry& e : entries) names.push_back(e.name);
  return run_suite_program(argc, argv, names, [&](std::string_view kernel, ParamValues values) {
    return run_microbenchmark(entries, kernel, values);
  });
}

}  // namespace sassim::kernels::ubench
