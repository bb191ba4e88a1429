// Exact-cycle tests of asynchronous-copy groups (LDGSTS, LDGDEPBAR, DEPBAR.LE SB0, N)
// on one SM, against a memory port whose accesses take given latencies.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <vector>

#include "ground/engine.h"
#include "isa/opcode.h"
#include "sim/async_groups.h"
#include "sim/exec_timing.h"
#include "sim/sm.h"
#include "sim_fixtures.h"

namespace sassim::sim {
namespace {

constexpr Picos kCycle = 1000;  // 1 GHz core clock in small_config()

// The i-th access submitted completes latencies[i] core cycles after its submission.
class ScriptedPort final : public memsys::SmMemoryPort {
 public:
  explicit ScriptedPort(std::vector<std::uint64_t> latencies) : latencies_(std::move(latencies)) {}
  bool can_accept(Picos /*now*/) const override { return true; }
  void submit(const memsys::WarpMemAccess& access, Picos now) override {
    done_.emplace(now + latencies_.at(submitted_++) * kCycle, access.token);
  }
  std::optional<std::uint32_t> pop_completed(Picos now) override {
    if (done_.empty() || done_.begin()->first > now) return std::nullopt;
    const std::uint32_t token = done_.begin()->second;
    done_.erase(done_.begin());
    return token;
  }
  Picos next_completion_ps() const override {
    return done_.empty() ? kNever : done_.begin()->first;
  }
  std::uint32_t outstanding() const override { return static_cast<std::uint32_t>(done_.size()); }

 private:
  std::vector<std::uint64_t> latencies_;
  std::size_t submitted_ = 0;
  std::multimap<Picos, std::uint32_t> done_;
};

class AsyncCopyTest : public ::testing::Test {
 protected:
  isa::StaticInst decoded(std::uint64_t pc, std::string_view opcode, std::int64_t immediate = 0) {
    isa::StaticInst s;
    s.pc = pc;
    s.op = *isa::OpcodeTable::get(isa::Arch::kSm80).decode(opcode);
    s.immediate = immediate;
    if (s.op.mem != isa::MemKind::kNone) s.mem_width_bytes = 16;
    return s;
  }

  // One warp runs LDGSTS, LDGDEPBAR, LDGSTS, LDGDEPBAR, DEPBAR.LE SB0 n, then an
  // independent instruction at PC 0x50; the copies take the given latencies.
  std::uint64_t resume_cycle(std::int64_t n, std::vector<std::uint64_t> latencies,
                             bool commit_second = true) {
    const std::uint32_t copy = statics_.add(decoded(0x00, "LDGSTS.E.BYPASS.LTC128B.128"));
    const std::uint32_t commit = statics_.add(decoded(0x10, "LDGDEPBAR"));
    const std::uint32_t copy2 = statics_.add(decoded(0x20, "LDGSTS.E.BYPASS.LTC128B.128"));
    const std::uint32_t commit2 = statics_.add(decoded(0x30, "LDGDEPBAR"));
    const std::uint32_t wait = statics_.add(decoded(0x40, "DEPBAR.LE", n));
    const std::uint32_t next =
        statics_.add(testing::make_inst(0x50, isa::UnitClass::kIntAlu, {}, isa::RegRange{9, 1}));
    std::vector<std::uint32_t> warp = {copy, commit, copy2};
    if (commit_second) warp.push_back(commit2);
    warp.insert(warp.end(), {wait, next});

    const config::GpuConfig config = testing::small_config();
    info_.arch = isa::Arch::kSm80;
    info_.block = {32, 1, 1};
    ExecTiming timing(config.sm(), info_.arch, info_.arch);
    KernelContext context;
    context.info = &info_;
    context.statics = &statics_;
    context.timing = &timing;
    context.cta = {32, 1, 0, 0};
    ScriptedPort port(std::move(latencies));
    Sm sm(0, config, port, Clock{kCycle});
    testing::IssueRecorder recorder;
    sm.set_issue_observer(&recorder);
    Engine engine(Clock{kCycle}, Clock{kCycle}, Clock{kCycle}, 10000);
    engine.add(ClockDomain::kCore, &sm);
    sm.accept(testing::make_cta(statics_, {warp}), context, 0);
    engine.run_until([&] { return !sm.busy(); });
    return recorder.cycle_of(0x50);
  }

  traces::KernelInfo info_;
  traces::StaticInstTable statics_;
};

// Issue: copy at 1 (submitted at 2: address generation 1), LDGDEPBAR 2, copy at 3
// (submitted at 4), LDGDEPBAR 4, DEPBAR 5. The instruction after it issues in the
// cycle its condition is met (or at 6).
TEST_F(AsyncCopyTest, WaitGroupOneWaitsOnlyForTheOlderGroup) {
  EXPECT_EQ(resume_cycle(1, {100, 300}), 102U);  // first group done at 2 + 100
}

TEST_F(AsyncCopyTest, WaitGroupZeroWaitsForEveryCommittedGroup) {
  EXPECT_EQ(resume_cycle(0, {100, 300}), 304U);  // second group done at 4 + 300
}

TEST_F(AsyncCopyTest, AnOlderGroupThatFinishesLastStillHoldsTheWait) {
  EXPECT_EQ(resume_cycle(1, {300, 100}), 302U);  // the younger group was done at 104
}

TEST_F(AsyncCopyTest, WaitGroupAsLargeAsTheGroupsInFlightDoesNotWait) {
  EXPECT_EQ(resume_cycle(2, {100, 300}), 6U);
}

TEST_F(AsyncCopyTest, UncommittedCopiesAreNotWaitedFor) {
  // Without the second LDGDEPBAR: DEPBAR at 4 waits for the first group only.
  EXPECT_EQ(resume_cycle(0, {100, 300}, false), 102U);
}

TEST(AsyncGroups, GroupsCompleteInAnyOrderAndAreDroppedFromTheFront) {
  Warp w;
  const std::uint64_t a = join_async_group(w);
  commit_async_group(w);
  const std::uint64_t b = join_async_group(w);
  const std::uint64_t b2 = join_async_group(w);
  commit_async_group(w);
  EXPECT_EQ(a, 0U);
  EXPECT_EQ(b, 1U);
  EXPECT_EQ(b2, 1U);
  EXPECT_FALSE(async_groups_within(w, 1));
  EXPECT_TRUE(async_groups_within(w, 2));
  finish_async_copy(w, b);
  finish_async_copy(w, b2);
  EXPECT_FALSE(async_groups_within(w, 1));  // group 0 is still in flight
  finish_async_copy(w, a);
  EXPECT_TRUE(async_groups_within(w, 0));
  EXPECT_EQ(w.async_group_base, 2U);
  commit_async_group(w);  // an empty group is complete at once
  EXPECT_TRUE(async_groups_within(w, 0));
}

TEST(AsyncGroups, NegativeOrHugeImmediatesClamp) {
  EXPECT_EQ(depbar_allowed_groups(-3), 0U);
  EXPECT_EQ(depbar_allowed_groups(5), 5U);
  EXPECT_EQ(depbar_allowed_groups(std::int64_t{1} << 40), 0xffffffffU);
}

}  // namespace
}  // namespace sassim::sim
