#include "kernels/prefill_attention.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "kernels/values.h"

namespace sassim::kernels::prefill_attention {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// Row `token` of head `head` in a [tokens][heads][128] tensor.
uint64_t row(uint64_t token, uint64_t heads, uint64_t head) {
  return (token * heads + head) * kHeadDim;
}

}  // namespace

Problem parse_problem(ParamValues values) {
  require_at_most(values, 5, kKernel);
  Problem p;
  p.batch = param_u32(values, 0, p.batch, "prefill_attention BATCH");
  p.seq_len = param_u32(values, 1, p.seq_len, "prefill_attention SEQ_LEN");
  p.heads = param_u32(values, 2, p.heads, "prefill_attention HEADS");
  p.kv_heads = param_u32(values, 3, p.kv_heads, "prefill_attention KV_HEADS");
  p.causal = param_count(values, 4, p.causal, "prefill_attention CAUSAL");
  require_multiple(p.seq_len, kBlockKV, "prefill_attention SEQ_LEN");
  require_multiple(p.heads, p.kv_heads, "prefill_attention HEADS");
  if (p.causal > 1) {
    throw std::invalid_argument("prefill_attention CAUSAL: expected 0 or 1, found " +
                                std::to_string(p.causal));
  }
  return p;
}

std::vector<float> reference_blockwise(const Problem& p, std::span<const uint16_t> q,
                                       std::span<const uint16_t> k, std::span<const uint16_t> v,
                                       std::vector<float>* spread) {
  const std::vector<float> qf = bf16_to_floats(q), kf = bf16_to_floats(k), vf = bf16_to_floats(v);
  std::vector<float> o(p.tokens() * p.heads * kHeadDim);
  if (spread != nullptr) spread->assign(o.size(), 0.0F);
  for (uint64_t b = 0; b < p.batch; ++b) {
    const uint64_t first = b * p.seq_len;
    for (uint64_t h = 0; h < p.heads; ++h) {
      const uint64_t kvh = h / p.group();
      for (uint64_t i = 0; i < p.seq_len; ++i) {
        const float* qrow = &qf[row(first + i, p.heads, h)];
        const uint64_t blocks = p.causal ? i / kBlockKV + 1 : p.seq_len / kBlockKV;
        float running_max = kNegInf;
        float running_sum = 0.0F;
        std::array<float, kHeadDim> acc{}, acc_abs{};
        for (uint64_t key0 = 0; key0 < blocks * kBlockKV; key0 += kBlockKV) {
          std::array<float, kBlockKV> s{};
          float block_max = kNegInf;
          for (uint64_t j = 0; j < kBlockKV; ++j) {
            if (p.causal && key0 + j > i) {
              s[j] = kNegInf;
              continue;
            }
            const float* krow = &kf[row(first + key0 + j, p.kv_heads, kvh)];
            float dot = 0.0F;
            for (uint64_t d = 0; d < kHeadDim; ++d) dot = std::fma(qrow[d], krow[d], dot);
            s[j] = dot * kScaleLog2;
            block_max = std::max(block_max, s[j]);
          }
          const float new_max = std::max(running_max, block_max);
          const float correction = std::exp2(running_max - new_max);
          running_sum *= correction;
          for (float& a : acc) a *= correction;
          for (float& a : acc_abs) a *= correction;
          for (uint64_t j = 0; j < kBlockKV; ++j) {
            const float prob = std::exp2(s[j] - new_max);
            running_sum += prob;
            const float prob16 = bf16_to_float(float_to_bf16(prob));
            const float* vrow = &vf[row(first + key0 + j, p.kv_heads, kvh)];
            for (uint64_t d = 0; d < kHeadDim; ++d) {
              acc[d] = std::fma(prob16, vrow[d], acc[d]);
              acc_abs[d] += prob16 * std::fabs(vrow[d]);
            }
          }
          running_max = new_max;
        }
        float* out = &o[row(first + i, p.heads, h)];
        for (uint64_t d = 0; d < kHeadDim; ++d) out[d] = acc[d] / running_sum;
        if (spread == nullptr) continue;
        float* spread_row = &(*spread)[row(first + i, p.heads, h)];
        for (uint64_t d = 0; d < kHeadDim; ++d) spread_row[d] = acc_abs[d] / running_sum;
      }
    }
  }
  return o;
}

std::vector<double> tolerances(const std::vector<float>& want, const std::vector<float>& spread) {
  if (want.size() != spread.size()) {
    throw std::invalid_argument("prefill_attention tolerances: " + std::to_string(spread.size()) +
                                " spreads for " + std::to_string(want.size()) + " values");
  }
  std::vector<double> t(want.size());
  for (size_t i = 0; i < t.size(); ++i) {
    t[i] = kAbsTolerance + kRelTolerance * std::fabs(static_cast<double>(want[i])) +
           kSpreadTolerance * spread[i];
  }
  return t;
}

std::vector<float> reference_naive(const Problem& p, std::span<const uint16_t> q,
                                   std::span<const uint16_t> k, std::span<const uint16_t> v) {
  const std::vector<float> qf = bf16_to_floats(q), kf = bf16_to_floats(k), vf = bf16_to_floats(v);
  std::vector<float> o(p.tokens() * p.heads * kHeadDim);
  const double scale = 1.0 / std::sqrt(static_cast<double>(kHeadDim));
  std::vector<double> scores(p.seq_len);
  for (uint64_t b = 0; b < p.batch; ++b) {
    const uint64_t first = b * p.seq_len;
    for (uint64_t h = 0; h < p.heads; ++h) {
      const uint64_t kvh = h / p.group();
      for (uint64_t i = 0; i < p.seq_len; ++i) {
        const uint64_t keys = p.causal ? i + 1 : p.seq_len;
        double max_score = -std::numeric_limits<double>::infinity();
        for (uint64_t j = 0; j < keys; ++j) {
          double dot = 0.0;
          for (uint64_t d = 0; d < kHeadDim; ++d) {
            dot += static_cast<double>(qf[row(first + i, p.heads, h) + d]) *
                   kf[row(first + j, p.kv_heads, kvh) + d];
          }
          scores[j] = dot * scale;
          max_score = std::max(max_score, scores[j]);
        }
        double sum = 0.0;
        for (uint64_t j = 0; j < keys; ++j) {
          scores[j] = std::exp(scores[j] - max_score);
          sum += scores[j];
        }
        for (uint64_t d = 0; d < kHeadDim; ++d) {
          double out = 0.0;
          for (uint64_t j = 0; j < keys; ++j) {
            out += scores[j] * vf[row(first + j, p.kv_heads, kvh) + d];
          }
          o[row(first + i, p.heads, h) + d] = static_cast<float>(out / sum);
        }
      }
    }
  }
  return o;
}

}  // namespace sassim::kernels::prefill_attention
