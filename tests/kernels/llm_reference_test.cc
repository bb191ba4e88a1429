// The CPU references of the decode-path kernels (rmsnorm, swiglu, rope, kv_append)
// against hand-computed values and plain double-precision formulas.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "kernels/kv_append.h"
#include "kernels/rmsnorm.h"
#include "kernels/rope.h"
#include "kernels/swiglu.h"
#include "kernels/values.h"

namespace sassim::kernels {
namespace {

std::vector<uint16_t> bf16_inputs(size_t count, uint64_t seed) {
  std::vector<uint16_t> v(count);
  fill_dyadic_bf16(v, seed);
  return v;
}

TEST(LlmReferenceTest, RmsnormOfAConstantRowIsTheWeight) {
  // x = 0.5: mean(x^2) = 0.25, x / sqrt(0.25 + 1e-5) = 0.99998, 1.0 in BF16; times w.
  const rmsnorm::Problem p{.tokens = 1, .hidden = 16};
  const std::vector<uint16_t> x(16, float_to_bf16(0.5F));
  std::vector<uint16_t> w(16), y(16);
  for (uint32_t i = 0; i < 16; ++i) w[i] = float_to_bf16(static_cast<float>(i) / 8 - 1);
  rmsnorm::reference(p, x, w, y);
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(y[i], w[i]) << i;
}

TEST(LlmReferenceTest, RmsnormMatchesTheFormula) {
  const rmsnorm::Problem p{.tokens = 3, .hidden = 4104};  // chunks past one round
  const auto x = bf16_inputs(size_t{p.tokens} * p.hidden, 1);
  const auto w = bf16_inputs(p.hidden, 2);
  std::vector<uint16_t> y(x.size());
  rmsnorm::reference(p, x, w, y);
  for (uint32_t row = 0; row < p.tokens; ++row) {
    double squares = 0;
    for (uint32_t i = 0; i < p.hidden; ++i) {
      const double v = bf16_to_float(x[size_t{row} * p.hidden + i]);
      squares += v * v;
    }
    const double r = 1.0 / std::sqrt(squares / p.hidden + rmsnorm::kEps);
    for (uint32_t i = 0; i < p.hidden; ++i) {
      const size_t at = size_t{row} * p.hidden + i;
      const double want = bf16_to_float(x[at]) * r * bf16_to_float(w[i]);
      // Two BF16 roundings: within 2^-7 relative.
      EXPECT_NEAR(bf16_to_float(y[at]), want, std::fabs(want) / 128 + 1e-30) << at;
    }
  }
}

TEST(LlmReferenceTest, Swiglu) {
  const swiglu::Problem p{.tokens = 2, .ffn = 16};
  std::vector<uint16_t> in = bf16_inputs(2 * 2 * 16, 3), out(2 * 16);
  in[0] = float_to_bf16(1.0F);   // gate of (0, 0)
  in[16] = float_to_bf16(1.0F);  // its up
  in[1] = float_to_bf16(0.0F);
  swiglu::reference(p, in, out);
  // silu(1) = 0.7310586, 0.73046875 (187 / 256) in BF16.
  EXPECT_EQ(bf16_to_float(out[0]), 0.73046875F);
  EXPECT_EQ(bf16_to_float(out[1]), 0.0F);
  for (uint32_t t = 0; t < p.tokens; ++t) {
    for (uint32_t i = 0; i < p.ffn; ++i) {
      const double g = bf16_to_float(in[t * 32 + i]), u = bf16_to_float(in[t * 32 + 16 + i]);
      const double want = g / (1 + std::exp(-g)) * u;
      EXPECT_NEAR(bf16_to_float(out[t * 16 + i]), want, std::fabs(want) / 128) << t << " " << i;
    }
  }
}

TEST(LlmReferenceTest, RopeTableAndRotation) {
  const rope::Problem p{.tokens = 4, .heads = 4, .kv_heads = 2, .max_position = 64};
  const auto table = rope::cos_sin_table(p);
  // Frequency 0 turns by the position in radians; the last by 500000^(-126/128) of it.
  EXPECT_EQ(table[5 * 128 + 0], static_cast<float>(std::cos(5.0)));
  EXPECT_EQ(table[5 * 128 + 64], static_cast<float>(std::sin(5.0)));
  EXPECT_EQ(table[5 * 128 + 63], static_cast<float>(std::cos(5 * std::pow(5e5, -126.0 / 128))));
  const auto pos = rope::positions(p);
  EXPECT_EQ(pos, (std::vector<int32_t>{13, 990 % 64, 1967 % 64, 2944 % 64}));
  std::vector<uint16_t> x = bf16_inputs(size_t{p.tokens} * p.heads * 128, 4);
  const std::vector<uint16_t> before = x;
  rope::reference(p, pos, table, p.heads, x);
  for (uint32_t t = 0; t < p.tokens; ++t) {
    for (uint32_t h = 0; h < p.heads; ++h) {
      for (uint32_t i = 0; i < 64; ++i) {
        const size_t lo = (size_t{t} * p.heads + h) * 128 + i, hi = lo + 64;
        const double angle = pos[t] * std::pow(5e5, -2.0 * i / 128);
        const double a = bf16_to_float(before[lo]), b = bf16_to_float(before[hi]);
        const double want_lo = a * std::cos(angle) - b * std::sin(angle);
        const double want_hi = b * std::cos(angle) + a * std::sin(angle);
        EXPECT_NEAR(bf16_to_float(x[lo]), want_lo, std::fabs(want_lo) / 128 + 1e-6);
        EXPECT_NEAR(bf16_to_float(x[hi]), want_hi, std::fabs(want_hi) / 128 + 1e-6);
      }
    }
  }
  // Position 0 leaves a head as it was.
  const rope::Problem zero{.tokens = 1, .heads = 1, .kv_heads = 1, .max_position = 1};
  std::vector<uint16_t> head(before.begin(), before.begin() + 128);
  rope::reference(zero, std::vector<int32_t>{0}, rope::cos_sin_table(zero), 1, head);
  EXPECT_EQ(head, std::vector<uint16_t>(before.begin(), before.begin() + 128));
}

TEST(LlmReferenceTest, KvAppendWritesEachTokenAtItsSlot) {
  const kv_append::Problem p{.tokens = 40, .kv_heads = 2, .num_pages = 4};
  const auto slots = kv_append::slot_mapping(p);
  std::set<int64_t> distinct;
  for (uint32_t t = 0; t < p.tokens; ++t) {
    if (t % 8 == 7) {
      EXPECT_EQ(slots[t], -1) << t;
    } else {
      EXPECT_GE(slots[t], 0);
      EXPECT_LT(slots[t], 64);
      EXPECT_TRUE(distinct.insert(slots[t]).second) << "slot " << slots[t] << " twice";
    }
  }
  EXPECT_EQ(slots[1], (4099 + 5) % 64);  // 4099 is odd: coprime to 64 slots
  const auto rows = bf16_inputs(size_t{p.tokens} * 2 * 128, 5);
  std::vector<uint16_t> cache(kv_append::cache_bytes(p) / 2);
  kv_append::reference(p, rows, slots, cache);
  size_t written = 0;
  for (uint16_t v : cache) written += v != 0 ? 1 : 0;
  // Token 1, head 1, dimension 3 lands in page slot / 16, row slot % 16.
  const int64_t s = slots[1];
  EXPECT_EQ(cache[((s / 16 * 2 + 1) * 16 + s % 16) * 128 + 3], rows[(1 * 2 + 1) * 128 + 3]);
  size_t nonzero_rows = 0;
  for (uint32_t t = 0; t < p.tokens; ++t) {
    if (slots[t] < 0) continue;
    for (uint32_t i = 0; i < 256; ++i) nonzero_rows += rows[t * 256 + i] != 0 ? 1 : 0;
  }
  EXPECT_EQ(written, nonzero_rows);  // nothing but the tokens' rows
}

TEST(LlmReferenceTest, BadProblemsAreErrors) {
  using V = std::vector<std::string_view>;
  EXPECT_THROW(rmsnorm::parse_problem(V{"4", "100"}), std::invalid_argument);
  EXPECT_THROW(swiglu::parse_problem(V{"4", "12"}), std::invalid_argument);
  EXPECT_THROW(rope::parse_problem(V{"4", "32", "6"}), std::invalid_argument);
  EXPECT_THROW(kv_append::parse_problem(V{"65", "8", "4"}), std::invalid_argument);
  EXPECT_NO_THROW(kv_append::parse_problem(V{"64", "8", "4"}));
}

}  // namespace
}  // namespace sassim::kernels
