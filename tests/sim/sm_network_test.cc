// The SM-to-SM network (sim/sm_network.h): the latency it adds to each kind of message,
// delivery in the step the message was sent, in SM order then send order whatever the
// host threads, and, through the whole GPU, distributed shared memory traffic that is
// the same on any thread count with the network's latency on its critical path.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "ground/engine.h"
#include "sim/gpu.h"
#include "sim/sm_network.h"
#include "traces/text_trace.h"

namespace sassim::sim {
namespace {

// What the network delivered to one SM, as text, with the engine cycle of the delivery
// when an engine is given.
class Receiver final : public ClusterBarrierMember {
 public:
  Receiver(std::string name, std::vector<std::string>& log, const Engine* engine = nullptr)
      : name_(std::move(name)), log_(log), engine_(engine) {}
  void cluster_barrier_completed(std::uint32_t cta_slot, std::uint64_t cycle,
                                 std::uint64_t resume) override {
    note(fmt::format("released slot {} at {} resume {}", cta_slot, cycle, resume));
  }
  void multicast_issued(std::uint32_t cta_slot, std::uint64_t barrier,
                        std::uint64_t bytes) override {
    note(fmt::format("tx slot {} barrier {:#x} bytes {}", cta_slot, barrier, bytes));
  }
  void remote_shared_arrives(const RemoteSharedAccess& a) override {
    note(fmt::format("{} from sm {} seq {} at {}", a.sender != nullptr ? "dsmem" : "write",
                     a.from_sm, a.seq, a.at));
  }
  void dsmem_replied(std::uint64_t seq, std::uint32_t token, std::uint64_t cycle) override {
    note(fmt::format("reply seq {} token {} at {}", seq, token, cycle));
  }

 private:
  void note(const std::string& what) {
    log_.push_back(engine_ != nullptr
                       ? fmt::format("{} @{}: {}", name_, engine_->cycle(ClockDomain::kCore), what)
                       : fmt::format("{}: {}", name_, what));
  }
  std::string name_;
  std::vector<std::string>& log_;
  const Engine* engine_;
};

RemoteSharedAccess access(std::uint32_t from, std::uint64_t seq,
                          ClusterBarrierMember* sender = nullptr, std::uint32_t token = 0) {
  RemoteSharedAccess a;
  a.from_sm = from;
  a.seq = seq;
  a.bytes = 128;
  a.sender = sender;
  a.token = token;
  return a;
}

TEST(SmNetwork, AddsItsLatencyToEachKindOfMessage) {
  std::vector<std::string> log;
  Receiver r0("sm0", log), r1("sm1", log);
  SmNetwork net(2, 9);  // 4 cycles there, 5 back
  EXPECT_EQ(net.next_event_ps(), kNever);
  net.outbox(0).send(net::SharedWrite{&r1, 100, access(0, 0)});
  net.outbox(0).send(net::DsmemRequest{&r1, 100, access(0, 1, &r0, 3)});
  net.outbox(1).send(net::DsmemRequest{nullptr, 50, access(1, 0, &r1, 4)});
  net.outbox(1).send(net::DsmemAnswer{&r0, 1, 3, 200});
  net.outbox(1).send(net::TxIssued{&r0, 2, 0x40, 4096});
  EXPECT_EQ(net.next_event_ps(), 0U);  // due in the step it was sent
  EXPECT_TRUE(net.tick(10, 10000));
  EXPECT_EQ(log, (std::vector<std::string>{
                     "sm1: write from sm 0 seq 0 at 109",  // left + L
                     "sm1: dsmem from sm 0 seq 1 at 104",  // left + floor(L / 2)
                     "sm1: reply seq 0 token 4 at 59",     // no CTA there: left + L
                     "sm0: reply seq 1 token 3 at 205",    // served + L - floor(L / 2)
                     "sm0: tx slot 2 barrier 0x40 bytes 4096",
                 }));
  EXPECT_EQ(net.next_event_ps(), kNever);
  EXPECT_FALSE(net.tick(11, 11000));
}

TEST(SmNetwork, AReplyTakesAtLeastACycle) {
  std::vector<std::string> log;
  Receiver r0("sm0", log), r1("sm1", log);
  SmNetwork net(2, 1);
  net.outbox(0).send(net::DsmemRequest{&r1, 20, access(0, 0, &r0, 1)});
  net.outbox(1).send(net::DsmemAnswer{&r0, 0, 1, 20});
  net.tick(20, 20000);
  EXPECT_EQ(log, (std::vector<std::string>{"sm1: dsmem from sm 0 seq 0 at 20",
                                           "sm0: reply seq 0 token 1 at 21"}));
}

TEST(SmNetwork, CarriesClusterBarrierArrivalsExitsAndLeaves) {
  std::vector<std::string> log;
  Receiver r0("sm0", log), r1("sm1", log);
  SmNetwork net(2, 10);
  auto barrier = std::make_shared<ClusterBarrier>(7);
  barrier->join(r0, 3, 2, 0);  // two warps on sm0, one on sm1
  barrier->join(r1, 5, 1, 1);
  net.outbox(1).send(net::BarrierArrive{barrier, 40});
  net.outbox(0).send(net::BarrierArrive{barrier, 40});
  net.tick(40, 40000);
  EXPECT_TRUE(log.empty());  // one warp of three has not arrived
  net.outbox(0).send(net::WarpExit{barrier, 44, false});
  net.tick(44, 44000);
  EXPECT_EQ(log, (std::vector<std::string>{"sm0: released slot 3 at 44 resume 51",
                                           "sm1: released slot 5 at 44 resume 51"}));
  EXPECT_NE(barrier->member(1), nullptr);
  net.outbox(1).send(net::CtaLeave{barrier, &r1, 5});
  net.tick(45, 45000);
  EXPECT_EQ(barrier->member(1), nullptr);
  EXPECT_NE(barrier->member(0), nullptr);
}

// A unit standing for an SM: at cycle `at` it sends a shared-memory write to `to`.
class Sender final : public ClockedUnit {
 public:
  Sender(std::uint32_t id, SmNetwork& net, ClusterBarrierMember& to, std::uint64_t at)
      : id_(id), name_(fmt::format("gpu.sm[{}]", id)), net_(net), to_(to), at_(at) {}
  bool tick(std::uint64_t cycle, Picos) override {
    if (cycle != at_) return false;
    sent_ = true;
    for (std::uint64_t seq = 0; seq < 3; ++seq) {
      net_.outbox(id_).send(net::SharedWrite{&to_, cycle, access(id_, seq)});
    }
    return true;
  }
  Picos next_event_ps() const override { return sent_ ? kNever : at_ * 1000; }
  bool busy() const override { return false; }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override { return ""; }
  void report(StatSink&) const override {}

 private:
  std::uint32_t id_;
  std::string name_;
  SmNetwork& net_;
  ClusterBarrierMember& to_;
  std::uint64_t at_;
  bool sent_ = false;
};

TEST(SmNetwork, DeliversInTheSendersStepInSmOrderOnAnyThreadCount) {
  for (unsigned threads : {1u, 2u, 3u}) {
    std::vector<std::string> log;
    Engine engine(Clock{1000}, Clock{1000}, Clock{1000}, 1000);
    Receiver target("sm9", log, &engine);
    SmNetwork net(3, 6);
    std::vector<std::unique_ptr<Sender>> senders;
    for (std::uint32_t i = 0; i < 3; ++i) {
      senders.push_back(std::make_unique<Sender>(i, net, target, 5));
      engine.add(ClockDomain::kCore, senders.back().get());
      engine.set_wakes(senders.back().get(), {});
    }
    engine.add(ClockDomain::kCore, &net);
    engine.set_wakes(&net, {});
    engine.set_tiles(ClockDomain::kCore,
                     {{senders[2].get()}, {senders[0].get()}, {senders[1].get()}});
    engine.set_threads(threads);
    engine.run_until([&] { return log.size() == 9; });
    std::vector<std::string> want;
    for (int sm = 0; sm < 3; ++sm) {
      for (int seq = 0; seq < 3; ++seq) {
        want.push_back(fmt::format("sm9 @5: write from sm {} seq {} at 11", sm, seq));
      }
    }
    EXPECT_EQ(log, want) << threads << " threads";
  }
}

// `ctas` one-warp CTAs in clusters of two: after a cluster barrier each reads 128 bytes
// of its peer's shared memory (distributed shared memory), meets the peer at the
// barrier again and exits (the load still in flight).
std::unique_ptr<traces::KernelTrace> dsmem_kernel(int ctas) {
  constexpr std::uint64_t kBase = 0x7f0000000000, kWindow = std::uint64_t{1} << 24;
  std::string t = fmt::format(
      "-kernel name = peers\n-kernel id = 1\n-grid dim = ({},1,1)\n-block dim = (32,1,1)\n"
      "-shmem = 1024\n-nregs = 16\n-binary version = 90\n-cuda stream id = 0\n"
      "-shmem base_addr = 0x{:016x}\n-local mem base_addr = 0x00007e0000000000\n"
      "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n"
      "-cluster dim = (2,1,1)\n\n",
      ctas, kBase);
  for (int c = 0; c < ctas; ++c) {
    const std::uint64_t peer = kBase + (1 + static_cast<std::uint64_t>((c % 2) ^ 1)) * kWindow;
    t += fmt::format(
        "#BEGIN_TB\n\nthread block = {},0,0\n\nwarp = 0\ninsts = 6\n"
        "0000 ffffffff 0 UCGABAR_ARV 0 0\n0010 ffffffff 0 UCGABAR_WAIT 0 0\n"
        "0020 ffffffff 1 R2 LD.E 1 R4 4 1 0x{:x} 4\n"
        "0030 ffffffff 0 UCGABAR_ARV 0 0\n0040 ffffffff 0 UCGABAR_WAIT 0 0\n"
        "0050 ffffffff 0 EXIT 0 0\n#END_TB\n",
        c, peer + 0x100);
  }
  return traces::kernel_from_text(t, "peers.traceg");
}

KernelResult run_dsmem(std::uint32_t latency, unsigned threads) {
  const config::GpuConfig config =
      config::load_config("h100", {fmt::format("cluster.dsmem_latency_cycles={}", latency)});
  Gpu gpu(config);
  gpu.set_threads(threads);
  auto kernel = dsmem_kernel(2 * static_cast<int>(config.num_sms()));
  return gpu.run_kernel(*kernel);
}

TEST(SmNetwork, DistributedSharedMemoryIsTheSameOnAnyThreadCount) {
  const KernelResult one = run_dsmem(190, 1);
  EXPECT_EQ(one.warp_insts, 6u * 2u * 132u);
  for (unsigned threads : {2u, 3u, 8u}) {
    const KernelResult many = run_dsmem(190, threads);
    EXPECT_EQ(many.cycles, one.cycles) << threads;
    EXPECT_TRUE(many.stats == one.stats) << threads;
  }
  // Each warp's exit waits for its one remote load: 100 more cycles across the network
  // make the kernel exactly 100 cycles longer.
  EXPECT_EQ(run_dsmem(290, 2).cycles - one.cycles, 100U);
}

}  // namespace
}  // namespace sassim::sim
