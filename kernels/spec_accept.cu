// spec_argmax and spec_accept: see spec_accept.h.
#include <cstdint>
#include <cstdio>

#include "kernels/cuda_host.cuh"
#include "kernels/spec_accept.h"
#include "kernels/values.h"

namespace {

namespace cfg = sassim::kernels::spec_accept;
constexpr uint32_t kArgmaxWarps = cfg::kArgmaxThreads / 32;
constexpr int32_t kNoIndex = 0x7fffffff;  // above every index: loses every tie

// (value, index) pairs ordered by value, then the lower index; NaN never compares larger.
__device__ __forceinline__ void take_better(float& best, int32_t& index, float v, int32_t i) {
  if (v > best || (v == best && i < index)) {
    best = v;
    index = i;
  }
}

}  // namespace

extern "C" __global__ void __launch_bounds__(256)
    spec_argmax(const float* __restrict__ logits, int32_t* __restrict__ argmax, uint32_t vocab) {
  __shared__ float warp_best[kArgmaxWarps];
  __shared__ int32_t warp_index[kArgmaxWarps];
  const float* row = logits + static_cast<size_t>(blockIdx.x) * vocab;
  float best = -INFINITY;
  int32_t index = kNoIndex;
  // A thread's indices rise, so a strict > keeps its first largest value.
  for (uint32_t i = threadIdx.x; i < vocab; i += cfg::kArgmaxThreads) {
    const float v = row[i];
    if (v > best) {
      best = v;
      index = static_cast<int32_t>(i);
    }
  }
#pragma unroll
  for (uint32_t offset = 16; offset > 0; offset /= 2) {
    const float v = __shfl_xor_sync(0xffffffffU, best, offset);
    const int32_t i = __shfl_xor_sync(0xffffffffU, index, offset);
    take_better(best, index, v, i);
  }
  const uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) {
    warp_best[warp] = best;
    warp_index[warp] = index;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
#pragma unroll
    for (uint32_t w = 1; w < kArgmaxWarps; ++w)
      take_better(best, index, warp_best[w], warp_index[w]);
    argmax[blockIdx.x] = index == kNoIndex ? 0 : index;
  }
}

extern "C" __global__ void __launch_bounds__(128)
    spec_accept(const int32_t* __restrict__ target, const int32_t* __restrict__ draft,
                int32_t* __restrict__ accepted, int32_t* __restrict__ tokens, uint32_t batch,
                uint32_t k) {
  const uint32_t seq = blockIdx.x * cfg::kSequencesPerCta + threadIdx.x / 32;
  if (seq >= batch) return;
  const uint32_t lane = threadIdx.x % 32;
  const int32_t t = lane <= k ? target[static_cast<size_t>(seq) * (k + 1) + lane] : -1;
  const bool mismatch = lane < k && draft[static_cast<size_t>(seq) * k + lane] != t;
  // Bit k stands for the end of the drafts: with no mismatch every draft is accepted.
  const uint32_t stops = __ballot_sync(0xffffffffU, mismatch) | (1U << k);
  const uint32_t n = __ffs(stops) - 1;
  if (lane == 0) accepted[seq] = static_cast<int32_t>(n);
  // The accepted drafts equal the target's tokens, which then gives the next token.
  if (lane <= k) tokens[static_cast<size_t>(seq) * (k + 1) + lane] = lane <= n ? t : -1;
}

namespace {

bool run(std::string_view kernel, sassim::kernels::ParamValues values) {
  using namespace sassim::kernels;
  if (kernel == cfg::kArgmaxKernel) {
    const cfg::ArgmaxProblem p = cfg::parse_argmax_problem(values);
    std::vector<float> logits(size_t{p.rows} * p.vocab);
    fill_dyadic(logits, 1);
    std::vector<int32_t> want(p.rows);
    cfg::reference_argmax(p, logits, want);
    DeviceBuffer<float> dlogits(logits);
    DeviceBuffer<int32_t> dout(p.rows);
    const Launch config = cfg::argmax_launch(p);
    print_launch(config);
    ::spec_argmax<<<to_dim3(config.grid), to_dim3(config.block)>>>(dlogits.get(), dout.get(),
                                                                   p.vocab);
    finish_launch();
    const bool ok = dout.download() == want;
    std::printf("spec_argmax: %s the CPU reference\n", ok ? "matches" : "does not match");
    return ok;
  }
  const cfg::AcceptProblem p = cfg::parse_accept_problem(values);
  const std::vector<int32_t> target = cfg::suite_targets(p), draft = cfg::suite_drafts(p);
  std::vector<int32_t> want_n(p.batch), want_tokens(size_t{p.batch} * p.rows());
  cfg::reference_accept(p, target, draft, want_n, want_tokens);
  DeviceBuffer<int32_t> dtarget(target), ddraft(draft), dn(p.batch), dtokens(want_tokens.size());
  const Launch config = cfg::accept_launch(p);
  print_launch(config);
  ::spec_accept<<<to_dim3(config.grid), to_dim3(config.block)>>>(
      dtarget.get(), ddraft.get(), dn.get(), dtokens.get(), p.batch, p.draft);
  finish_launch();
  const bool ok = dn.download() == want_n && dtokens.download() == want_tokens;
  std::printf("spec_accept: %s the CPU reference\n", ok ? "matches" : "does not match");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  return sassim::kernels::run_suite_program(argc, argv, {"spec_argmax", "spec_accept"}, run);
}
