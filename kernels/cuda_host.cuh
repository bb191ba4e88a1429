// Host-side helpers shared by the suite programs (kernels/*.cu): error checks, device
// buffers, launches from a Launch description, output checks against the CPU reference.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/launch.h"
#include "kernels/params.h"

namespace sassim::kernels {

inline void cuda_check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(error));
  }
}
#define SASSIM_CUDA_CHECK(expr) ::sassim::kernels::cuda_check((expr), #expr)

template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t count) : count_(count) {
    SASSIM_CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T)));
    SASSIM_CUDA_CHECK(cudaMemset(data_, 0, count * sizeof(T)));
  }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { cudaFree(data_); }

  T* get() const { return data_; }
  size_t size() const { return count_; }
  void upload(std::span<const T> host) {
    SASSIM_CUDA_CHECK(
        cudaMemcpy(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    SASSIM_CUDA_CHECK(cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  T* data_ = nullptr;
  size_t count_;
};

inline dim3 to_dim3(const Dim3& d) {
  return dim3(d.x, d.y, d.z);
}

inline void print_launch(const Launch& launch) {
  std::printf("%.*s: grid (%u,%u,%u) block (%u,%u,%u) dynamic shared %u B\n",
              static_cast<int>(launch.kernel.size()), launch.kernel.data(), launch.grid.x,
              launch.grid.y, launch.grid.z, launch.block.x, launch.block.y, launch.block.z,
              launch.dynamic_shared_bytes);
}

// Waits for the launch and reports a failure in it.
inline void finish_launch() {
  SASSIM_CUDA_CHECK(cudaGetLastError());
  SASSIM_CUDA_CHECK(cudaDeviceSynchronize());
}

// True when every |got - want| <= abs_tol + rel_tol * |want|; prints the first mismatch.
inline bool check_close(std::span<const float> got, std::span<const float> want, double rel_tol,
                        double abs_tol, std::string_view what) {
  if (got.size() != want.size()) {
    std::printf("%.*s: %zu values, expected %zu\n", static_cast<int>(what.size()), what.data(),
                got.size(), want.size());
    return false;
  }
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double diff = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (!(diff <= abs_tol + rel_tol * std::fabs(static_cast<double>(want[i])))) {
      if (bad == 0) {
        std::printf("%.*s: mismatch at %zu: got %.9g, expected %.9g\n",
                    static_cast<int>(what.size()), what.data(), i, static_cast<double>(got[i]),
                    static_cast<double>(want[i]));
      }
      ++bad;
    }
  }
  std::printf("%.*s: %zu of %zu values %s\n", static_cast<int>(what.size()), what.data(),
              got.size() - bad, got.size(), bad == 0 ? "match the CPU reference" : "match");
  return bad == 0;
}

// The main of a suite program: `PROGRAM [KERNEL [VALUE...]]` runs KERNEL (default: the
// first of `kernels`) once on the problem its values describe, checks the result against
// the CPU reference, and exits 0 when it matches.
using KernelRunner = std::function<bool(std::string_view kernel, ParamValues values)>;

inline int run_suite_program(int argc, char** argv, std::vector<std::string_view> kernels,
                             const KernelRunner& run) {
  std::string_view kernel = kernels.front();
  std::vector<std::string_view> values;
  if (argc > 1) kernel = argv[1];
  for (int i = 2; i < argc; ++i) values.emplace_back(argv[i]);
  bool known = false;
  for (std::string_view k : kernels) known = known || k == kernel;
  if (!known) {
    std::fprintf(stderr, "%s: unknown kernel '%.*s'; this program runs:", argv[0],
                 static_cast<int>(kernel.size()), kernel.data());
    for (std::string_view k : kernels)
      std::fprintf(stderr, " %.*s", static_cast<int>(k.size()), k.data());
    std::fprintf(stderr, "\n");
    return 2;
  }
  try {
    return run(kernel, values) ? 0 : 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: %s\n", argv[0], error.what());
    return 1;
  }
}

}  // namespace sassim::kernels
