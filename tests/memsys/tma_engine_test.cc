// Exact-cycle tests of the TMA / bulk-copy engine with mock neighbours (one request per
// line a copy touches, for the sectors it needs there): an L2 that
// answers every read (and acknowledges every write that asks) a fixed number of cycles
// after it was sent, and a shared-memory data path with a configurable byte credit.
#include "memsys/tma_engine.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace sassim::memsys {
namespace {

constexpr Picos kCycle = 1000;
constexpr std::uint32_t kSector = 32;
constexpr std::uint32_t kLine = 128;

struct MockNeighbours final : TmaNeighbours {
  std::uint64_t l2_cycles = 100;  // request sent to response taken
  ByteCredit shared{1 << 20};     // effectively unlimited unless a test replaces it
  std::uint32_t refuse_at_cycle = ~0u;
  std::vector<std::pair<Picos, MemRequest>> sent;
  std::multimap<Picos, MemResponse> responses;
  std::map<std::uint32_t, Picos> done;

  bool send(const MemRequest& r, Picos now) override {
    if (now / kCycle == refuse_at_cycle) return false;
    sent.emplace_back(now, r);
    if (r.kind == ReqKind::kRead || r.acknowledge) {
      responses.emplace(now + l2_cycles * kCycle,
                        MemResponse{r.line, r.sector_mask, r.tag, r.sm, r.kind});
    }
    return true;
  }
  std::uint64_t write_shared(std::uint32_t bytes, Picos now) override {
    shared.refill(now / kCycle);
    return shared.consume(bytes);
  }
  std::uint64_t read_shared(std::uint32_t bytes, Picos now) override {
    return write_shared(bytes, now);
  }
  void complete(std::uint32_t token, Picos done_ps) override { done[token] = done_ps; }
};

config::TmaConfig tma_config(std::uint32_t setup, std::uint32_t bytes_per_cycle) {
  config::TmaConfig c;
  c.set_setup_latency_cycles(setup);
  c.set_bytes_per_cycle(bytes_per_cycle);
  return c;
}

// Runs every cycle until the engine is idle: responses due first, then the engine.
void run(TmaEngine& engine, MockNeighbours& mock, std::uint64_t max_cycles = 10000) {
  for (std::uint64_t cycle = 0; cycle < max_cycles && engine.busy(); ++cycle) {
    const Picos now = cycle * kCycle;
    while (!mock.responses.empty() && mock.responses.begin()->first <= now) {
      engine.take_response(mock.responses.begin()->second, now);
      mock.responses.erase(mock.responses.begin());
    }
    engine.tick(now);
  }
}

TmaCopy copy(std::uint32_t token, TmaKind kind, std::uint32_t bytes,
             std::vector<std::uint64_t> transfers) {
  return TmaCopy{token, kind, bytes, std::move(transfers)};
}

TEST(TmaEngine, BulkLoadCompletesAfterSetupTransferAndL2) {
  const std::uint32_t setup = 10, rate = 64, bytes = 1024;
  MockNeighbours mock;
  TmaEngine engine(3, tma_config(setup, rate), kLine, kSector, Clock{kCycle}, mock);
  engine.submit(copy(7, TmaKind::kLoad, bytes, {0x10000}), 0);
  run(engine, mock);
  const std::uint64_t sectors = bytes / kSector, lines = bytes / kLine;
  ASSERT_EQ(mock.sent.size(), lines);
  // One request per line, for its four sectors: request i leaves floor(i x 128 / 64)
  // cycles after setup.
  for (std::uint64_t i = 0; i < lines; ++i) {
    EXPECT_EQ(mock.sent[i].first, (setup + i * kLine / rate) * kCycle) << i;
    EXPECT_EQ(mock.sent[i].second.line, 0x10000 / kLine + i);
    EXPECT_EQ(mock.sent[i].second.sector_mask, 0xfu);
    EXPECT_EQ(mock.sent[i].second.sm, 3);
    EXPECT_NE(mock.sent[i].second.tag & kTmaTagBit, 0u);
  }
  const std::uint64_t last_sent = setup + (lines - 1) * kLine / rate;  // 24
  EXPECT_EQ(mock.done.at(7), (last_sent + mock.l2_cycles) * kCycle);
  EXPECT_EQ(engine.stats().read_sectors, sectors);
  EXPECT_FALSE(engine.busy());
}

TEST(TmaEngine, SharedWriteBandwidthDelaysCompletion) {
  const std::uint32_t setup = 5, rate = 128, bytes = 1024;
  MockNeighbours mock;
  mock.shared = ByteCredit(16);  // one 32-byte sector per 2 cycles
  TmaEngine engine(0, tma_config(setup, rate), kLine, kSector, Clock{kCycle}, mock);
  engine.submit(copy(1, TmaKind::kLoad, bytes, {0}), 0);
  run(engine, mock);
  // 4 sectors per cycle arrive from setup + 100 on, for 8 cycles; the data path writes
  // 16 B per cycle: 1024 B take 64 cycles. The first write starts on arrival with a
  // full credit of 16 B, so the last write ends (1024 - 16) / 16 cycles later.
  const std::uint64_t first_arrival = setup + mock.l2_cycles;
  EXPECT_EQ(mock.done.at(1), (first_arrival + (bytes - 16) / 16) * kCycle);
}

TEST(TmaEngine, UnalignedTensorRowsAskForTheSectorsTheyTouch) {
  MockNeighbours mock;
  TmaEngine engine(0, tma_config(0, 1024), kLine, kSector, Clock{kCycle}, mock);
  // Two rows of 64 bytes each, the first starting 16 bytes into a sector: 3 + 2 sectors,
  // one request per row's line; a row crossing into the next line takes two.
  engine.submit(copy(2, TmaKind::kLoad, 192, {0x1010, 0x2000, 0x3060}), 0);
  run(engine, mock);
  ASSERT_EQ(mock.sent.size(), 4u);
  EXPECT_EQ(mock.sent[0].second.line, 0x1000u / kLine);
  EXPECT_EQ(mock.sent[0].second.sector_mask, 0x7u);
  EXPECT_EQ(mock.sent[1].second.line, 0x2000u / kLine);
  EXPECT_EQ(mock.sent[1].second.sector_mask, 0x3u);
  EXPECT_EQ(mock.sent[2].second.line, 0x3000u / kLine);
  EXPECT_EQ(mock.sent[2].second.sector_mask, 0x8u);
  EXPECT_EQ(mock.sent[3].second.line, 0x3080u / kLine);
  EXPECT_EQ(mock.sent[3].second.sector_mask, 0x1u);
  EXPECT_EQ(engine.stats().read_sectors, 7u);
  EXPECT_EQ(mock.done.at(2), mock.l2_cycles * kCycle);
}

TEST(TmaEngine, StoreCompletesWhenItsLastWriteIsSent) {
  const std::uint32_t setup = 8, rate = 32, bytes = 512;
  MockNeighbours mock;
  TmaEngine engine(0, tma_config(setup, rate), kLine, kSector, Clock{kCycle}, mock);
  engine.submit(copy(4, TmaKind::kStore, bytes, {0x4000}), 0);
  run(engine, mock);
  // Four whole-line writes, 128 bytes each at 32 a cycle: the last leaves at setup + 12.
  ASSERT_EQ(mock.sent.size(), bytes / kLine);
  EXPECT_EQ(mock.sent.back().second.kind, ReqKind::kWrite);
  EXPECT_EQ(mock.sent.back().second.sector_mask, 0xfu);
  EXPECT_EQ(mock.sent.back().second.full_mask, mock.sent.back().second.sector_mask);
  EXPECT_EQ(mock.done.at(4), (setup + 12) * kCycle);
  EXPECT_EQ(engine.stats().write_sectors, bytes / kSector);
}

TEST(TmaEngine, AckTokenCompletesWhenTheLastWriteIsAcknowledged) {
  const std::uint32_t setup = 8, rate = 32, bytes = 512;
  MockNeighbours mock;
  TmaEngine engine(0, tma_config(setup, rate), kLine, kSector, Clock{kCycle}, mock);
  TmaCopy c = copy(4, TmaKind::kStore, bytes, {0x4000});
  c.ack_token = 5;
  engine.submit(c, 0);
  run(engine, mock);
  ASSERT_EQ(mock.sent.size(), bytes / kLine);  // one acknowledgement per line
  for (const auto& [at, request] : mock.sent) EXPECT_TRUE(request.acknowledge);
  const Picos last_sent = (setup + 12) * kCycle;
  EXPECT_EQ(mock.done.at(4), last_sent);  // the source has been read
  EXPECT_EQ(mock.done.at(5), last_sent + mock.l2_cycles * kCycle);
  EXPECT_FALSE(engine.busy());
}

TEST(TmaEngine, ReductionSendsReductionRequestsAndIsAcknowledgedLikeAStore) {
  const std::uint32_t setup = 2, rate = 64, bytes = 256;
  MockNeighbours mock;
  mock.l2_cycles = 30;
  TmaEngine engine(0, tma_config(setup, rate), kLine, kSector, Clock{kCycle}, mock);
  TmaCopy c = copy(1, TmaKind::kReduction, bytes, {0x8000});
  c.ack_token = 2;
  engine.submit(c, 0);
  run(engine, mock);
  ASSERT_EQ(mock.sent.size(), bytes / kLine);
  for (const auto& [at, request] : mock.sent) {
    EXPECT_EQ(request.kind, ReqKind::kReduction);
    EXPECT_EQ(request.full_mask, 0u);
  }
  // Line request i leaves floor(i x 128 / 64) cycles after the first.
  const Picos last_sent = (setup + kLine / rate) * kCycle;
  EXPECT_EQ(mock.sent.back().first, last_sent);
  EXPECT_EQ(mock.done.at(1), last_sent);
  EXPECT_EQ(mock.done.at(2), last_sent + 30 * kCycle);
  EXPECT_EQ(engine.stats().reduction_sectors, bytes / kSector);
  EXPECT_EQ(engine.stats().write_sectors, 0u);
}

TEST(TmaEngine, EmptyStoreCompletesBothTokensAfterSetup) {
  MockNeighbours mock;
  TmaEngine engine(0, tma_config(5, 32), kLine, kSector, Clock{kCycle}, mock);
  TmaCopy c = copy(7, TmaKind::kStore, 0, {0x4000});
  c.ack_token = 8;
  engine.submit(c, 0);
  run(engine, mock);
  EXPECT_EQ(mock.done.at(7), 5 * kCycle);
  EXPECT_EQ(mock.done.at(8), 5 * kCycle);
  EXPECT_FALSE(engine.busy());
}

TEST(TmaEngine, PrefetchCompletesAtItsLastRequestAndDropsResponses) {
  MockNeighbours mock;
  TmaEngine engine(0, tma_config(4, 32), kLine, kSector, Clock{kCycle}, mock);
  engine.submit(copy(5, TmaKind::kPrefetch, 160, {0x8000}), 0);
  run(engine, mock);
  // 128 bytes (one line) at setup, then the 32 of the next line 128 / 32 cycles later.
  EXPECT_EQ(mock.done.at(5), 8 * kCycle);
  EXPECT_FALSE(engine.busy());  // the responses came back and freed the copy
}

TEST(TmaEngine, RefusedRequestIsRetriedNextCycle) {
  MockNeighbours mock;
  mock.refuse_at_cycle = 3;
  TmaEngine engine(0, tma_config(3, 128), kLine, kSector, Clock{kCycle}, mock);
  engine.submit(copy(6, TmaKind::kStore, 256, {0}), 0);
  EXPECT_EQ(engine.next_event_ps(), 3 * kCycle);
  run(engine, mock);
  ASSERT_EQ(mock.sent.size(), 2u);
  EXPECT_EQ(mock.sent[0].first, 4 * kCycle);
  EXPECT_EQ(mock.sent[1].first, 5 * kCycle);
}

TEST(TmaEngine, CopiesAreServedInOrderAndEmptyCopiesCompleteAfterSetup) {
  MockNeighbours mock;
  TmaEngine engine(0, tma_config(2, 32), kLine, kSector, Clock{kCycle}, mock);
  engine.submit(copy(1, TmaKind::kStore, 192, {0}), 0);
  engine.submit(copy(2, TmaKind::kStore, 0, {}), 0);
  engine.submit(copy(3, TmaKind::kStore, 32, {0x100}), 0);
  run(engine, mock);
  EXPECT_EQ(mock.done.at(1), 6 * kCycle);  // its two lines leave at 2 and 2 + 128 / 32
  EXPECT_EQ(mock.done.at(2), 6 * kCycle);  // behind copy 1
  EXPECT_EQ(mock.done.at(3), 8 * kCycle);  // after the 64 bytes of copy 1's second line
}

}  // namespace
}  // namespace sassim::memsys
