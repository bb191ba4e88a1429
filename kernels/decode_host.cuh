// The host side of the flash-decoding split programs (decode_attention.cu,
// decode_attention_tc.cu): the inputs as the suite makes them (Q, K and V caches from seeds
// 1, 2, 3; the problem's block tables and context lengths), their device copies, the
// split kernel's launch with its outputs, and the check of the partials.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/cuda_host.cuh"
#include "kernels/decode_attention.h"
#include "kernels/values.h"

namespace sassim::kernels::decode_attention {

inline std::vector<uint16_t> bf16_input(size_t count, uint64_t seed) {
  std::vector<uint16_t> v(count);
  fill_dyadic_bf16(v, seed);
  return v;
}

struct DecodeRun {
  using Kernel = void (*)(const uint4*, const uint4*, const uint4*, const int32_t*, const int32_t*,
                          float*, float*);
  using Reference = Partials (*)(const Problem&, std::span<const uint16_t>,
                                 std::span<const uint16_t>, std::span<const uint16_t>);

  DecodeRun(ParamValues values, Reference reference)
      : p(parse_problem(values)),
        q(bf16_input(size_t{p.batch} * p.heads() * kHeadDim, 1)),
        k(bf16_input(cache_bytes(p) / 2, 2)),
        v(bf16_input(cache_bytes(p) / 2, 3)),
        want(reference(p, q, k, v)),
        dq(q),
        dk(k),
        dv(v),
        dtables(block_tables(p)),
        dlens(context_lens(p)),
        dpartial(want.o.size()),
        dlse(want.lse.size()) {}

  // The split kernel on the whole problem.
  void launch(Kernel kernel, const Launch& config) {
    print_launch(config);
    kernel<<<to_dim3(config.grid), to_dim3(config.block)>>>(
        reinterpret_cast<const uint4*>(dq.get()), reinterpret_cast<const uint4*>(dk.get()),
        reinterpret_cast<const uint4*>(dv.get()), dtables.get(), dlens.get(), dpartial.get(),
        dlse.get());
    finish_launch();
  }

  // The partials against the reference's.
  bool check_partials(std::string_view name) const {
    const bool o_ok = check_close(dpartial.download(), want.o, kRelTolerance, kAbsTolerance,
                                  std::string(name) + " o_partial");
    const bool lse_ok = check_close(dlse.download(), want.lse, kRelTolerance, kAbsTolerance,
                                    std::string(name) + " lse");
    return o_ok && lse_ok;
  }

  Problem p;
  std::vector<uint16_t> q, k, v;
  Partials want;
  DeviceBuffer<uint16_t> dq, dk, dv;
  DeviceBuffer<int32_t> dtables, dlens;
  DeviceBuffer<float> dpartial, dlse;
};

}  // namespace sassim::kernels::decode_attention
