// The warp-specialised GEMMs' launches (kernels/gemm_ws.h): bf16_gemm_ws against
// fp8_gemm_wgmma, the same structure on two-byte elements.
#include <gtest/gtest.h>

#include "kernels/bf16_gemm_ws.h"
#include "kernels/fp8_gemm_wgmma.h"
#include "kernels/suite.h"

namespace sassim::kernels {
namespace {

using Values = std::vector<std::string_view>;

TEST(GemmWsTest, Bf16LaunchIsFp8sOnTwoByteElements) {
  const Launch b = describe_launch("bf16_gemm_ws", Values{"512", "768", "256"});
  const Launch f = describe_launch("fp8_gemm_wgmma", Values{"512", "768", "256"});
  EXPECT_EQ(b.grid.x, 3U);  // N / 256
  EXPECT_EQ(b.grid.y, 4U);  // M / 128
  EXPECT_EQ(b.cluster.y, 2U);
  EXPECT_EQ(b.block.x, f.block.x);
  EXPECT_EQ(b.dynamic_shared_bytes, f.dynamic_shared_bytes);  // 4 stages of 48 KiB, 1 KiB slack
  EXPECT_EQ(b.dynamic_shared_bytes, 4U * 49152U + 1024U);
  ASSERT_EQ(b.arguments().size(), 6U);  // a_map, bt_map, c, m, n, k: no scales
  EXPECT_EQ(b.arguments()[0].map.element_bytes, 2U);
  EXPECT_EQ(b.arguments()[0].map.box_cols, 64U);  // 128 bytes of K
  EXPECT_EQ(b.arguments()[0].size_bytes, 512U * 256U * 2U);
  EXPECT_EQ(b.arguments()[1].map.box_rows, 128U);
  EXPECT_EQ(b.arguments()[2].size_bytes, 512U * 768U * 4U);
  EXPECT_EQ(b.arguments()[5].value_bits, 256U);  // k
  EXPECT_EQ(f.arguments()[0].map.box_cols, 128U);
  EXPECT_THROW(describe_launch("bf16_gemm_ws", Values{"256", "256", "96"}),
               std::invalid_argument);  // K must be a multiple of 64
  EXPECT_NO_THROW(describe_launch("bf16_gemm_ws", Values{"256", "256", "64"}));
  EXPECT_THROW(describe_launch("bf16_gemm_ws", Values{"128", "256", "64"}),
               std::invalid_argument);  // M must be a multiple of 256
}

}  // namespace
}  // namespace sassim::kernels
