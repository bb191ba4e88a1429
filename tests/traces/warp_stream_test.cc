// Warp instruction streams in chunks: the window gives back exactly the instructions
// and addresses that went in, across chunk boundaries, from memory and from the spool;
// spool space of consumed CTAs is reused; spool failures name the spool and the reason.
#include "traces/warp_stream.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "ground/error.h"
#include "tests/support/scratch_dir.h"
#include "traces/decoded_cta.h"

namespace sassim::traces {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// A CTA of `warps` warps of `insts` instructions each: runs of straight-line code with
// jumps, changing masks, and addresses of every form the encoding distinguishes.
DecodedCta varied_cta(std::uint32_t warps, std::uint32_t insts, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  DecodedCta cta;
  cta.id = {seed, 0, 0};
  for (std::uint32_t w = 0; w < warps; ++w) {
    WarpTrace& warp = cta.warps.emplace_back();
    warp.warp_in_cta = w;
    std::uint32_t index = 0;
    std::uint32_t mask = ~0U;
    for (std::uint32_t i = 0; i < insts; ++i) {
      index = rng() % 8 == 0 ? static_cast<std::uint32_t>(rng() % 300) : index + 1;
      if (rng() % 16 == 0) mask = static_cast<std::uint32_t>(rng());
      isa::WarpInst wi{index, mask, static_cast<std::uint32_t>(cta.addresses.size()), 0};
      const std::uint64_t base = 0x7f0000000000ULL + (rng() % (1U << 30)) * 4;
      switch (rng() % 7) {
        case 0:  // 32 lanes, uniform stride
        case 1:
          for (std::uint64_t l = 0; l < 32; ++l) cta.addresses.push_back(base + 4 * l);
          break;
        case 2:  // irregular, full 64-bit values included
          for (int l = 0; l < 20; ++l) cta.addresses.push_back(rng());
          break;
        case 3:  // one address; a record with the "none" word and a negative stride
          cta.addresses.push_back(base);
          if (rng() % 2 == 0) {
            cta.addresses.push_back(kNoTraceValue);
            cta.addresses.push_back(0);
          }
          break;
        case 4:
          for (std::uint64_t l = 0; l < 8; ++l) cta.addresses.push_back(base - 16 * l);
          break;
        default:  // no addresses
          break;
      }
      wi.addr_count = static_cast<std::uint32_t>(cta.addresses.size() - wi.addr_begin);
      warp.insts.push_back(wi);
    }
  }
  return cta;
}

void expect_same(const DecodedCta& got, const DecodedCta& want) {
  EXPECT_EQ(got.id, want.id);
  ASSERT_EQ(got.warps.size(), want.warps.size());
  for (std::size_t w = 0; w < want.warps.size(); ++w) {
    EXPECT_EQ(got.warps[w].warp_in_cta, want.warps[w].warp_in_cta);
    ASSERT_EQ(got.warps[w].insts.size(), want.warps[w].insts.size()) << "warp " << w;
    for (std::size_t i = 0; i < want.warps[w].insts.size(); ++i) {
      const isa::WarpInst& a = got.warps[w].insts[i];
      const isa::WarpInst& b = want.warps[w].insts[i];
      ASSERT_EQ(a.static_index, b.static_index) << "warp " << w << " inst " << i;
      ASSERT_EQ(a.active_mask, b.active_mask) << "warp " << w << " inst " << i;
      ASSERT_EQ(a.addr_count, b.addr_count) << "warp " << w << " inst " << i;
      for (std::uint32_t k = 0; k < a.addr_count; ++k) {
        ASSERT_EQ(got.addresses[a.addr_begin + k], want.addresses[b.addr_begin + k])
            << "warp " << w << " inst " << i << " address " << k;
      }
    }
  }
}

TEST(WarpStream, RoundTripInMemory) {
  auto store = std::make_shared<TraceStore>();
  const DecodedCta want = varied_cta(4, 3000, 1);
  CtaTrace cta = encode(want, store);
  EXPECT_EQ(cta.instruction_count(), 4u * 3000);
  EXPECT_GT(store->memory_bytes(), 3 * kChunkBytes);  // several chunks per warp
  EXPECT_EQ(store->chunks_spooled(), 0u);
  expect_same(decode(std::move(cta)), want);
  EXPECT_EQ(store->memory_bytes(), 0u);
}

TEST(WarpStream, RoundTripSpooled) {
  test_support::ScratchDir dir("warp_stream_spool");
  auto store = std::make_shared<TraceStore>(TraceStoreOptions{0, dir.path()});
  const DecodedCta want = varied_cta(3, 2500, 2);
  CtaTrace cta = encode(want, store);
  EXPECT_EQ(store->memory_bytes(), 0u);
  EXPECT_GT(store->chunks_spooled(), 6u);
  EXPECT_GT(store->spool_used_bytes(), 0u);
  expect_same(decode(std::move(cta)), want);
  EXPECT_EQ(store->spool_used_bytes(), 0u);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));  // the spool has no name
}

TEST(WarpStream, BudgetSplitsBetweenMemoryAndSpool) {
  auto store = std::make_shared<TraceStore>(TraceStoreOptions{5 * kChunkBytes, {}});
  const DecodedCta want = varied_cta(2, 4000, 3);
  CtaTrace cta = encode(want, store);
  EXPECT_LE(store->memory_bytes(), 5 * kChunkBytes);
  EXPECT_GT(store->memory_bytes(), 3 * kChunkBytes);
  EXPECT_GT(store->chunks_spooled(), 0u);
  expect_same(decode(std::move(cta)), want);
}

// An instruction whose addresses alone exceed a chunk gets a chunk of its own.
TEST(WarpStream, OversizedInstruction) {
  auto store = std::make_shared<TraceStore>(TraceStoreOptions{0, {}});
  DecodedCta want;
  WarpTrace& warp = want.warps.emplace_back();
  std::mt19937_64 rng(4);
  for (std::uint32_t i = 0; i < 3; ++i) {
    const auto count = static_cast<std::uint32_t>(i == 1 ? 3 * kChunkBytes : 5);
    warp.insts.push_back({i, ~0U, static_cast<std::uint32_t>(want.addresses.size()), count});
    for (std::uint32_t k = 0; k < count; ++k) want.addresses.push_back(rng());
  }
  expect_same(decode(encode(want, store)), want);
  EXPECT_EQ(store->spool_used_bytes(), 0u);
}

// The window as the SM reads it: the front end decodes up to 16 ahead of the next
// instruction, and the instruction just issued keeps its addresses.
TEST(WarpStream, WindowKeepsTheIssuedInstructionWhileDecodingAhead) {
  auto store = std::make_shared<TraceStore>(TraceStoreOptions{0, {}});
  const DecodedCta want = varied_cta(1, 5000, 5);
  CtaTrace cta = encode(want, store);
  WarpWindow window(std::move(cta.warps[0]));
  ASSERT_EQ(window.size(), 5000u);
  const auto& insts = want.warps[0].insts;
  for (std::uint32_t next = 0; next < window.size(); ++next) {
    const isa::WarpInst issued = window.inst(next);
    window.forget_before(next);
    for (std::uint32_t ahead = next; ahead < std::min(next + 17, window.size()); ++ahead) {
      ASSERT_EQ(window.inst(ahead).static_index, insts[ahead].static_index) << ahead;
    }
    const std::span<const std::uint64_t> a = window.addresses(issued);
    ASSERT_EQ(a.size(), insts[next].addr_count);
    for (std::size_t k = 0; k < a.size(); ++k) {
      ASSERT_EQ(a[k], want.addresses[insts[next].addr_begin + k]) << next;
    }
  }
  EXPECT_LE(window.decoded_end() - window.first(), 32u);
}

// CTAs read and retired in turn, four in flight: the spool file stops growing once the
// first ones retire, however many follow.
TEST(WarpStream, SpoolSpaceIsReusedAfterCtasRetire) {
  test_support::ScratchDir dir("warp_stream_reuse");
  auto store = std::make_shared<TraceStore>(TraceStoreOptions{0, dir.path()});
  std::vector<CtaTrace> resident;
  std::uint64_t after_first_wave = 0;
  for (std::uint32_t n = 0; n < 200; ++n) {
    resident.push_back(encode(varied_cta(2, 400, n), store));
    if (resident.size() == 4) {
      // The oldest retires: read to the end, or (every third) dropped unread.
      if (n % 3 == 0) {
        resident.erase(resident.begin());
      } else {
        decode(std::move(resident.front()));
        resident.erase(resident.begin());
      }
    }
    if (n == 10) after_first_wave = store->spool_file_bytes();
  }
  EXPECT_GT(after_first_wave, 0u);
  EXPECT_LE(store->spool_file_bytes(), after_first_wave + 8 * kChunkBytes);
  EXPECT_GT(store->chunks_spooled() * kChunkBytes, 20 * store->spool_file_bytes());
  resident.clear();
  EXPECT_EQ(store->spool_used_bytes(), 0u);
}

TEST(WarpStream, SpoolThatCannotBeCreatedNamesTheFolderAndReason) {
  auto store = std::make_shared<TraceStore>(TraceStoreOptions{0, "/nonexistent-sassim-spool/dir"});
  try {
    encode(varied_cta(1, 10, 6), store);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("trace spool in /nonexistent-sassim-spool/dir"),
                                HasSubstr("cannot create the temporary file"),
                                HasSubstr("No such file or directory")));
  }
}

TEST(WarpStream, MalformedChunkIsAnError) {
  const std::vector<std::byte> bytes{std::byte{0x0c}, std::byte{0x80}};  // a cut-off number
  ChunkDecoder decoder(bytes);
  isa::WarpInst wi;
  std::vector<std::uint64_t> addresses;
  EXPECT_THROW(decoder.next(wi, addresses), Error);
}

TEST(TraceStoreOptions, BudgetFromTheEnvironment) {
  ::setenv("SASSIM_TRACE_MEMORY_BUDGET", "12345", 1);
  EXPECT_EQ(TraceStoreOptions::from_environment().memory_budget_bytes, 12345u);
  ::setenv("SASSIM_TRACE_MEMORY_BUDGET", "64M", 1);
  EXPECT_THROW(TraceStoreOptions::from_environment(), Error);
  ::unsetenv("SASSIM_TRACE_MEMORY_BUDGET");
  EXPECT_EQ(TraceStoreOptions::from_environment().memory_budget_bytes,
            kDefaultTraceMemoryBudgetBytes);
}

}  // namespace
}  // namespace sassim::traces
