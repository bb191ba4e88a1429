// The LSU front on its own (sim/lsu.h), with a mock L1 port and a mock network sender:
// the watermark of each sub-core's queue, the pipe's interval, the round-robin hand-over
// into a bounded address stage, the port's refusals and the accesses that leave for the
// SM-to-SM network instead of the L1. Exact cycles, 1 ns per cycle.
#include <gtest/gtest.h>

#include <optional>
#include <utility>
#include <vector>

#include "sim/lsu.h"

namespace sassim::sim {
namespace {

constexpr Picos kCycle = 1000;

class RecordingPort final : public memsys::SmMemoryPort {
 public:
  bool can_accept(Picos now) const override { return now >= open_from; }
  void submit(const memsys::WarpMemAccess& access, Picos now) override {
    submitted.emplace_back(access.token, now / kCycle);
  }
  std::optional<std::uint32_t> pop_completed(Picos /*now*/) override { return std::nullopt; }
  Picos next_completion_ps() const override { return kNever; }
  std::uint32_t outstanding() const override { return 0; }

  Picos open_from = 0;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> submitted;  // (token, cycle)
};

class RecordingSender final : public Lsu::DsmemSender {
 public:
  void send_dsmem(const memsys::WarpMemAccess& access, Picos now) override {
    sent.emplace_back(access.token, now / kCycle);
  }
  std::vector<std::pair<std::uint32_t, std::uint64_t>> sent;
};

class LsuTest : public ::testing::Test {
 protected:
  // 4 sub-cores; memory pipe latency 2, interval 2: the address stage holds 4 x 1.
  void SetUp() override {
    config_.mutable_sm()->set_sub_cores(4);
    config_.mutable_sm()->mutable_units()->mutable_memory()->set_latency_cycles(2);
    config_.mutable_sm()->mutable_units()->mutable_memory()->set_initiation_interval_cycles(2);
    config_.mutable_sm()->mutable_mio_queue()->set_entries(3);
    config_.mutable_sm()->mutable_mio_queue()->set_global_local_entries(1);
  }

  static isa::StaticInst inst(isa::MemSpace space, isa::AsyncOp async = isa::AsyncOp::kNone) {
    isa::StaticInst si;
    si.op.space = space;
    si.op.async = async;
    return si;
  }

  // A new access of sub-core `sub` entering at `cycle`, ready (operands read) then.
  std::uint32_t enter(Lsu& lsu, std::size_t sub, const isa::StaticInst& si, std::uint64_t cycle,
                      bool dsmem = false) {
    const std::uint32_t token = lsu.acquire_token();
    lsu.pending(token).dsmem = dsmem;
    memsys::WarpMemAccess access;
    access.token = token;
    lsu.enter(sub, si, access, cycle * kCycle, cycle * kCycle, 2, 2);
    return token;
  }

  // Runs cycles [from, to): submits, then drains, as the SM's tick does.
  void run(Lsu& lsu, std::uint64_t from, std::uint64_t to) {
    for (std::uint64_t c = from; c < to; ++c) {
      lsu.submit(c * kCycle, port_, sender_);
      if (lsu.has_queues()) lsu.drain_queues(c, c * kCycle);
    }
  }

  config::GpuConfig config_;
  RecordingPort port_;
  RecordingSender sender_;
};

TEST_F(LsuTest, TokensAreReusedLastFreedFirst) {
  Lsu lsu(config_, Clock{kCycle});
  EXPECT_EQ(lsu.acquire_token(), 0U);
  EXPECT_EQ(lsu.acquire_token(), 1U);
  EXPECT_EQ(lsu.acquire_token(), 2U);
  lsu.release_token(0);
  lsu.release_token(2);
  EXPECT_EQ(lsu.acquire_token(), 2U);
  EXPECT_EQ(lsu.acquire_token(), 0U);
  EXPECT_EQ(lsu.acquire_token(), 3U);
}

TEST_F(LsuTest, SharedAccessesFillTheQueueGlobalOnesStopAtTheWatermark) {
  Lsu lsu(config_, Clock{kCycle});
  const isa::StaticInst shared = inst(isa::MemSpace::kShared);
  const isa::StaticInst global = inst(isa::MemSpace::kGlobal);
  EXPECT_FALSE(lsu.path_full(0, global));
  enter(lsu, 0, shared, 0);
  EXPECT_TRUE(lsu.path_full(0, global));  // 1 waiting: the global watermark
  EXPECT_FALSE(lsu.path_full(0, shared));
  EXPECT_FALSE(lsu.path_full(1, global));  // another sub-core's queue is empty
  enter(lsu, 0, shared, 0);
  enter(lsu, 0, shared, 0);
  EXPECT_EQ(lsu.queue_size(0), 3U);
  EXPECT_TRUE(lsu.path_full(0, shared));
}

TEST_F(LsuTest, ThePipeTakesOnePerIntervalAndAddressGenerationCountsFromThen) {
  Lsu lsu(config_, Clock{kCycle});
  const isa::StaticInst shared = inst(isa::MemSpace::kShared);
  for (int i = 0; i < 3; ++i) enter(lsu, 0, shared, 0);
  run(lsu, 0, 12);
  // Taken at cycles 0, 2, 4; address generation 2 cycles each.
  const std::vector<std::pair<std::uint32_t, std::uint64_t>> expected{{0, 2}, {1, 4}, {2, 6}};
  EXPECT_EQ(port_.submitted, expected);
}

TEST_F(LsuTest, SubCoresTakeTurnsForTheAddressStage) {
  config_.mutable_sm()->set_sub_cores(2);  // the stage holds 2
  Lsu lsu(config_, Clock{kCycle});
  const isa::StaticInst shared = inst(isa::MemSpace::kShared);
  // Sub-core 0: tokens 0, 1, 2; sub-core 1: tokens 3, 4, 5.
  for (int i = 0; i < 3; ++i) enter(lsu, 0, shared, 0);
  for (int i = 0; i < 3; ++i) enter(lsu, 1, shared, 0);
  port_.open_from = 5 * kCycle;  // the port refuses until cycle 5: the stage fills
  run(lsu, 0, 4);
  EXPECT_TRUE(lsu.stage_full());
  EXPECT_EQ(lsu.next_drain_ps(), kNever);  // held by the full stage
  run(lsu, 4, 20);
  // Cycle 0 takes 0 and 3; at 5 both leave, 1 (sub-core 0 after the last served, 1) and
  // then 4 are taken in cycle 5; then 2 and 5 at 7.
  const std::vector<std::pair<std::uint32_t, std::uint64_t>> expected{{0, 5}, {3, 5}, {1, 7},
                                                                      {4, 7}, {2, 9}, {5, 9}};
  EXPECT_EQ(port_.submitted, expected);
}

TEST_F(LsuTest, DistributedSharedAccessesLeaveForTheNetworkPastARefusingPort) {
  Lsu lsu(config_, Clock{kCycle});
  const isa::StaticInst shared = inst(isa::MemSpace::kShared);
  enter(lsu, 0, shared, 0, /*dsmem=*/true);
  enter(lsu, 1, shared, 0);
  port_.open_from = 10 * kCycle;
  run(lsu, 0, 12);
  const std::vector<std::pair<std::uint32_t, std::uint64_t>> sent{{0, 2}};
  EXPECT_EQ(sender_.sent, sent);
  const std::vector<std::pair<std::uint32_t, std::uint64_t>> submitted{{1, 10}};
  EXPECT_EQ(port_.submitted, submitted);
}

TEST_F(LsuTest, AsyncCopiesAndQueuelessSmsEnterTheAddressStageDirectly) {
  const isa::StaticInst copy = inst(isa::MemSpace::kGlobal, isa::AsyncOp::kTmaLoad);
  Lsu lsu(config_, Clock{kCycle});
  EXPECT_FALSE(lsu.queued(copy));
  // Ready at its entry cycle (the caller's latency is in `ready`): the stage shows it from
  // the next instant, so it leaves in the next cycle's tick.
  enter(lsu, 0, copy, 3);
  EXPECT_EQ(lsu.queue_size(0), 0U);
  EXPECT_EQ(lsu.next_submit_ps(), 3 * kCycle + 1);

  config_.mutable_sm()->mutable_mio_queue()->set_entries(0);
  config_.mutable_sm()->mutable_mio_queue()->set_global_local_entries(0);
  Lsu plain(config_, Clock{kCycle});
  const isa::StaticInst global = inst(isa::MemSpace::kGlobal);
  EXPECT_FALSE(plain.has_queues());
  for (int i = 0; i < 4; ++i) {
    EXPECT_FALSE(plain.path_full(0, global)) << i;
    enter(plain, static_cast<std::size_t>(i % 2), global, 0);
  }
  EXPECT_TRUE(plain.path_full(3, global));  // the stage holds 4, whatever the sub-core
}

}  // namespace
}  // namespace sassim::sim
