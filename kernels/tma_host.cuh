// Host side of the sm_90a suite programs: the check for an sm_90 GPU and the TMA tensor
// maps of K-major matrices (cuTensorMapEncodeTiled, through the runtime's entry point).
#pragma once

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda_host.cuh"
#include "kernels/gemm_problem.h"

namespace sassim::kernels {

// True on an sm_90 GPU (H100/H200); else says why `kernel` cannot run and returns false.
inline bool has_sm90(const char* kernel) {
  cudaDeviceProp properties{};
  SASSIM_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
  if (properties.major == 9 && properties.minor == 0) return true;
  std::printf("%s: needs an sm_90 GPU (H100/H200), found %s (sm_%d%d)\n", kernel, properties.name,
              properties.major, properties.minor);
  return false;
}

// A K-major matrix of `rows` x `cols` elements of `type` (`element_bytes` each) as a TMA
// map with boxes of one 128-byte swizzle row of K by `box_rows` rows.
inline CUtensorMap k_major_tensor_map(const void* base, uint64_t rows, uint64_t cols,
                                      uint32_t box_rows, CUtensorMapDataType type,
                                      uint32_t element_bytes) {
  using EncodeTiled = decltype(&cuTensorMapEncodeTiled);
  void* entry = nullptr;
  cudaDriverEntryPointQueryResult found{};
  SASSIM_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000,
                                                     cudaEnableDefault, &found));
  if (entry == nullptr || found != cudaDriverEntryPointSuccess) {
    throw std::runtime_error("the driver has no cuTensorMapEncodeTiled");
  }
  CUtensorMap map{};
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {cols * element_bytes};
  const cuuint32_t box[2] = {128 / element_bytes, box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult result = reinterpret_cast<EncodeTiled>(entry)(
      &map, type, 2, const_cast<void*>(base), dims, strides, box, element_strides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS)
    throw std::runtime_error("cuTensorMapEncodeTiled failed: " + std::to_string(result));
  return map;
}

// Runs `kernel`, whose parameters are the tensor maps of A (M x K) and Bt (N x K), C
// (M x N, FP32) and then `args`, as `config` describes on `a` and `bt` (boxes of
// `a_box_rows` and `bt_box_rows` rows) and checks C against `want` bit for bit.
template <class T, class... Params, class... Args>
bool run_tma_gemm(const char* name, void (*kernel)(CUtensorMap, CUtensorMap, float*, Params...),
                  const Launch& config, const GemmProblem& p, CUtensorMapDataType type,
                  uint32_t a_box_rows, uint32_t bt_box_rows, const std::vector<T>& a,
                  const std::vector<T>& bt, const std::vector<float>& want, Args... args) {
  DeviceBuffer<T> da(a), dbt(bt);
  DeviceBuffer<float> dc(want.size());
  const CUtensorMap a_map = k_major_tensor_map(da.get(), p.m, p.k, a_box_rows, type, sizeof(T));
  const CUtensorMap bt_map = k_major_tensor_map(dbt.get(), p.n, p.k, bt_box_rows, type, sizeof(T));
  SASSIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(config.dynamic_shared_bytes)));
  print_launch(config);
  kernel<<<to_dim3(config.grid), to_dim3(config.block), config.dynamic_shared_bytes>>>(
      a_map, bt_map, dc.get(), args...);
  finish_launch();
  return check_close(dc.download(), want, 0, 0, name);
}

}  // namespace sassim::kernels
