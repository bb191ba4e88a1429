// kv_append: see kv_append.h.
#include <cstdint>

#include "kernels/cuda_host.cuh"
#include "kernels/kv_append.h"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::kv_append;
constexpr uint32_t kHeadChunks = cfg::kHeadDim / cfg::kChunk;  // 16

}  // namespace

extern "C" __global__ void __launch_bounds__(128)
    kv_append(const uint4* __restrict__ key, const uint4* __restrict__ value,
              uint4* __restrict__ key_cache, uint4* __restrict__ value_cache,
              const int64_t* __restrict__ slot_mapping, uint32_t kv_heads) {
  const uint32_t token = blockIdx.x;
  const int64_t slot = slot_mapping[token];
  if (slot < 0) return;
  const uint64_t page = static_cast<uint64_t>(slot) / cfg::kPageSize;
  const uint32_t offset = static_cast<uint32_t>(slot % cfg::kPageSize);
  const uint32_t chunks = kv_heads * kHeadChunks;
  for (uint32_t c = threadIdx.x; c < chunks; c += cfg::kThreads) {
    const uint32_t head = c / kHeadChunks;
    const uint32_t d = c % kHeadChunks;
    const size_t src = static_cast<size_t>(token) * chunks + c;
    const size_t dst = ((page * kv_heads + head) * cfg::kPageSize + offset) * kHeadChunks + d;
    key_cache[dst] = key[src];
    value_cache[dst] = value[src];
  }
}

namespace {

bool run(std::string_view, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  const auto p = cfg::parse_problem(values);
  const Launch config = cfg::launch(p);
  std::vector<uint16_t> hk(size_t{p.tokens} * p.kv_heads * cfg::kHeadDim), hv(hk.size());
  fill_dyadic_bf16(hk, 1);
  fill_dyadic_bf16(hv, 2);
  const std::vector<int64_t> slots = cfg::slot_mapping(p);
  const size_t cache_values = cfg::cache_bytes(p) / 2;
  std::vector<uint16_t> want_k(cache_values), want_v(cache_values);
  cfg::reference(p, hk, slots, want_k);
  cfg::reference(p, hv, slots, want_v);
  DeviceBuffer<uint16_t> dk(hk), dv(hv), dkc(cache_values), dvc(cache_values);
  DeviceBuffer<int64_t> dslots(slots);
  print_launch(config);
  ::kv_append<<<to_dim3(config.grid), to_dim3(config.block)>>>(
      reinterpret_cast<const uint4*>(dk.get()), reinterpret_cast<const uint4*>(dv.get()),
      reinterpret_cast<uint4*>(dkc.get()), reinterpret_cast<uint4*>(dvc.get()), dslots.get(),
      p.kv_heads);
  finish_launch();
  const bool k_ok = dkc.download() == want_k;
  const bool v_ok = dvc.download() == want_v;
  std::printf("kv_append: key cache %s, value cache %s the CPU reference\n",
              k_ok ? "matches" : "does not match", v_ok ? "matches" : "does not match");
  return k_ok && v_ok;
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"kv_append"}, run);
}
