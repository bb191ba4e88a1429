// The SM's asynchronous-copy stage on its own (sim/async_engine.h), with mock ports:
// a copy spends its address-generation latency in the stage, then goes to the port's TMA
// engine; a port without an engine completes it at once, its ack token after it. Exact
// cycles, 1 ns per cycle.
#include <gtest/gtest.h>

#include <optional>
#include <utility>
#include <vector>

#include "sim/async_engine.h"

namespace sassim::sim {
namespace {

constexpr Picos kCycle = 1000;

class TmaPort final : public memsys::SmMemoryPort {
 public:
  explicit TmaPort(bool engine) : engine_(engine) {}
  bool can_accept(Picos /*now*/) const override { return true; }
  void submit(const memsys::WarpMemAccess& /*access*/, Picos /*now*/) override {}
  std::optional<std::uint32_t> pop_completed(Picos /*now*/) override { return std::nullopt; }
  Picos next_completion_ps() const override { return kNever; }
  std::uint32_t outstanding() const override { return 0; }
  bool submit_tma(const memsys::TmaCopy& copy, Picos now) override {
    if (engine_) taken.push_back({copy.token, copy.kind, copy.bytes, now / kCycle});
    return engine_;
  }

  struct Taken {
    std::uint32_t token;
    memsys::TmaKind kind;
    std::uint32_t bytes;
    std::uint64_t cycle;
    bool operator==(const Taken&) const = default;
  };
  std::vector<Taken> taken;

 private:
  bool engine_;
};

// The completion callback: appends each token completed at once to `tokens`.
auto record(std::vector<std::uint32_t>& tokens) {
  return [&tokens](std::uint32_t token) { tokens.push_back(token); };
}

config::GpuConfig sm_config() {
  config::GpuConfig config;
  config.mutable_sm()->set_sub_cores(4);
  config.mutable_sm()->mutable_units()->mutable_memory()->set_latency_cycles(3);
  return config;
}

TEST(AsyncEngineTest, CopiesLeaveTheStageAfterTheirLatencyInOrder) {
  AsyncEngine engine(sm_config(), Clock{kCycle});
  TmaPort port(true);
  memsys::TmaCopy& load = engine.stage(5, memsys::kNoAckToken, 2 * kCycle, 4);
  load.kind = memsys::TmaKind::kLoad;
  load.bytes = 1024;
  memsys::TmaCopy& store = engine.stage(2, 9, 3 * kCycle, 4);
  store.kind = memsys::TmaKind::kStore;
  store.bytes = 512;
  EXPECT_EQ(engine.next_submit_ps(), 6 * kCycle);
  std::vector<std::uint32_t> completed;
  for (std::uint64_t c = 0; c < 6; ++c)
    EXPECT_FALSE(engine.submit(c * kCycle, port, record(completed)));
  EXPECT_TRUE(engine.submit(6 * kCycle, port, record(completed)));
  EXPECT_TRUE(engine.submit(7 * kCycle, port, record(completed)));
  EXPECT_EQ(engine.next_submit_ps(), kNever);
  const std::vector<TmaPort::Taken> expected{{5, memsys::TmaKind::kLoad, 1024, 6},
                                             {2, memsys::TmaKind::kStore, 512, 7}};
  EXPECT_EQ(port.taken, expected);
  EXPECT_TRUE(completed.empty());
}

TEST(AsyncEngineTest, APortWithoutAnEngineCompletesCopiesAtOnceAckTokenAfter) {
  AsyncEngine engine(sm_config(), Clock{kCycle});
  TmaPort port(false);
  engine.stage(1, memsys::kNoAckToken, 0, 2);
  engine.stage(3, 4, 0, 2);
  std::vector<std::uint32_t> completed;
  EXPECT_FALSE(engine.submit(kCycle, port, record(completed)));
  EXPECT_TRUE(engine.submit(2 * kCycle, port, record(completed)));
  EXPECT_EQ(completed, (std::vector<std::uint32_t>{1, 3, 4}));
}

TEST(AsyncEngineTest, CopyOperations) {
  EXPECT_TRUE(is_tma_copy(isa::AsyncOp::kTmaLoad));
  EXPECT_TRUE(is_tma_copy(isa::AsyncOp::kClusterReduce));
  EXPECT_FALSE(is_tma_copy(isa::AsyncOp::kMbarArrive));
  EXPECT_FALSE(is_tma_copy(isa::AsyncOp::kBulkCommit));
  EXPECT_EQ(tma_kind(isa::AsyncOp::kTmaReduce), memsys::TmaKind::kReduction);
  EXPECT_EQ(tma_kind(isa::AsyncOp::kClusterCopy), memsys::TmaKind::kSharedCopy);
  EXPECT_EQ(tma_kind(isa::AsyncOp::kTmaPrefetch), memsys::TmaKind::kPrefetch);
  EXPECT_TRUE(writes_global(isa::AsyncOp::kTmaStore));
  EXPECT_FALSE(writes_global(isa::AsyncOp::kClusterReduce));
}

}  // namespace
}  // namespace sassim::sim
