#include "kernels/flash_attention.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/values.h"

namespace sassim::kernels::flash_attention {
namespace {

std::vector<float> to_float(std::span<const uint16_t> halves) {
  std::vector<float> out(halves.size());
  for (size_t i = 0; i < halves.size(); ++i) out[i] = half_to_float(halves[i]);
  return out;
}

}  // namespace

Problem parse_problem(ParamValues values) {
  require_at_most(values, 2, kKernel);
  Problem p;
  p.batch_heads = param_u32(values, 0, p.batch_heads, "flash_attention_fwd BATCH_HEADS");
  p.seq_len = param_u32(values, 1, p.seq_len, "flash_attention_fwd SEQ_LEN");
  require_multiple(p.seq_len, kBlockKV, "flash_attention_fwd SEQ_LEN");
  return p;
}

void reference_blockwise(const Problem& p, std::span<const uint16_t> q, std::span<const uint16_t> k,
                         std::span<const uint16_t> v, std::span<float> o) {
  const std::vector<float> qf = to_float(q), kf = to_float(k), vf = to_float(v);
  const uint64_t d = kHeadDim;
  for (uint64_t bh = 0; bh < p.batch_heads; ++bh) {
    const uint64_t base = bh * p.seq_len * d;
    for (uint64_t row = 0; row < p.seq_len; ++row) {
      const float* qrow = &qf[base + row * d];
      float running_max = -std::numeric_limits<float>::infinity();
      float running_sum = 0.0F;
      std::array<float, kHeadDim> acc{};
      for (uint64_t key0 = 0; key0 < p.seq_len; key0 += kBlockKV) {
        std::array<float, kBlockKV> s{};
        float block_max = -std::numeric_limits<float>::infinity();
        for (uint64_t j = 0; j < kBlockKV; ++j) {
          const float* krow = &kf[base + (key0 + j) * d];
          float dot = 0.0F;
          for (uint64_t i = 0; i < d; ++i) dot = std::fma(qrow[i], krow[i], dot);
          s[j] = dot * kScaleLog2;
          block_max = std::max(block_max, s[j]);
        }
        const float new_max = std::max(running_max, block_max);
        const float correction = std::exp2(running_max - new_max);
        running_sum *= correction;
        for (float& a : acc) a *= correction;
        for (uint64_t j = 0; j < kBlockKV; ++j) {
          const float prob = std::exp2(s[j] - new_max);
          running_sum += prob;
          const float prob16 = half_to_float(float_to_half(prob));
          const float* vrow = &vf[base + (key0 + j) * d];
          for (uint64_t i = 0; i < d; ++i) acc[i] = std::fma(prob16, vrow[i], acc[i]);
        }
        running_max = new_max;
      }
      for (uint64_t i = 0; i < d; ++i) o[base + row * d + i] = acc[i] / running_sum;
    }
  }
}

void reference_naive(const Problem& p, std::span<const uint16_t> q, std::span<const uint16_t> k,
                     std::span<const uint16_t> v, std::span<float> o) {
  const std::vector<float> qf = to_float(q), kf = to_float(k), vf = to_float(v);
  const uint64_t d = kHeadDim;
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  std::vector<double> scores(p.seq_len);
  for (uint64_t bh = 0; bh < p.batch_heads; ++bh) {
    const uint64_t base = bh * p.seq_len * d;
    for (uint64_t row = 0; row < p.seq_len; ++row) {
      double max_score = -std::numeric_limits<double>::infinity();
      for (uint64_t j = 0; j < p.seq_len; ++j) {
        double dot = 0.0;
        for (uint64_t i = 0; i < d; ++i)
          dot += static_cast<double>(qf[base + row * d + i]) * kf[base + j * d + i];
        scores[j] = dot * scale;
        max_score = std::max(max_score, scores[j]);
      }
      double sum = 0.0;
      for (double& s : scores) {
        s = std::exp(s - max_score);
        sum += s;
      }
      for (uint64_t i = 0; i < d; ++i) {
        double out = 0.0;
        for (uint64_t j = 0; j < p.seq_len; ++j) out += scores[j] * vf[base + j * d + i];
        o[base + row * d + i] = static_cast<float>(out / sum);
      }
    }
  }
}

}  // namespace sassim::kernels::flash_attention
