// Tiles of units tick on several host threads with the outcome of one thread: each
// tile's units in their order (a unit woken by an earlier one of its tile ticks in
// the same step), doorbells rung from several tiles keep the earliest time, errors
// reach the caller, and bad tiles are refused at set_tiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "ground/engine.h"
#include "ground/error.h"
#include "ground/link.h"

namespace sassim::memsys {
namespace {

constexpr Picos kCycle = 1000;

// Collects what the tiles send, each tile on a Link of its own; one doorbell for all,
// as the crossbar has for the SMs' requests. In no tile.
class Sink final : public ClockedUnit {
 public:
  explicit Sink(int tiles) {
    for (int i = 0; i < tiles; ++i) links.push_back(std::make_unique<Link<int>>(1024, &inbox));
  }
  bool tick(std::uint64_t /*cycle*/, Picos now) override {
    Picos pending = kNever;
    for (auto& link : links) {
      while (link->ready(now)) received.push_back({now, link->pop()});
      if (!link->empty()) pending = std::min(pending, link->front_ready_ps());
    }
    inbox.reset(pending);
    return true;
  }
  Picos next_event_ps() const override { return inbox.earliest_ps(); }
  bool busy() const override {
    for (const auto& link : links) {
      if (!link->empty()) return true;
    }
    return false;
  }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override { return "sink"; }
  void report(StatSink& /*sink*/) const override {}

  Doorbell inbox{this};
  std::vector<std::unique_ptr<Link<int>>> links;
  std::vector<std::pair<Picos, int>> received;

 private:
  std::string name_ = "test.sink";
};

// The first unit of a tile: ticks every cycle for `cycles` cycles and hands its
// follower one piece of work per tick, visible at once.
class Leader final : public ClockedUnit {
 public:
  Leader(std::string name, std::uint64_t cycles) : name_(std::move(name)), cycles_(cycles) {}
  bool tick(std::uint64_t cycle, Picos now) override {
    if (on_tick) on_tick();
    ++work;
    next_ = cycle < cycles_ ? now + kCycle : kNever;
    return true;
  }
  Picos next_event_ps() const override { return next_; }
  bool busy() const override { return next_ != kNever; }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override { return "leader"; }
  void report(StatSink& /*sink*/) const override {}

  std::uint64_t work = 0;  // read by the follower of the same tile
  std::function<void()> on_tick;

 private:
  std::string name_;
  std::uint64_t cycles_;
  Picos next_ = 0;
};

// Ticks when its leader has handed it work; sends the sink its tile number and the
// work seen, visible `delay` later.
class Follower final : public ClockedUnit {
 public:
  Follower(std::string name, const Leader& leader, Sink& sink, int tile, Picos delay)
      : name_(std::move(name)), leader_(leader), sink_(sink), tile_(tile), delay_(delay) {}
  bool tick(std::uint64_t /*cycle*/, Picos now) override {
    if (leader_.work == done_) return false;
    done_ = leader_.work;
    ticks.push_back(now);
    sink_.links[static_cast<std::size_t>(tile_)]->push(tile_ * 1000 + static_cast<int>(done_), now,
                                                       now + delay_);
    return true;
  }
  Picos next_event_ps() const override { return leader_.work != done_ ? 0 : kNever; }
  bool busy() const override { return leader_.work != done_; }
  const std::string& name() const override { return name_; }
  std::string describe_state() const override { return "follower"; }
  void report(StatSink& /*sink*/) const override {}

  std::vector<Picos> ticks;

 private:
  std::string name_;
  const Leader& leader_;
  Sink& sink_;
  int tile_;
  Picos delay_;
  std::uint64_t done_ = 0;
};

struct Rig {
  explicit Rig(int tiles, unsigned threads, std::uint64_t cycles = 6)
      : sink(tiles), engine(Clock{kCycle}, Clock{kCycle}, Clock{kCycle}, 1000) {
    engine.add(ClockDomain::kCore, &sink);
    for (int i = 0; i < tiles; ++i) {
      // Tile i's follower sends with a delay that makes later tiles' items arrive first.
      leaders.push_back(std::make_unique<Leader>("leader" + std::to_string(i), cycles));
      followers.push_back(std::make_unique<Follower>("follower" + std::to_string(i),
                                                     *leaders.back(), sink, i,
                                                     kCycle * static_cast<Picos>(tiles - i)));
    }
    for (auto& l : leaders) engine.add(ClockDomain::kCore, l.get());
    for (auto& f : followers) engine.add(ClockDomain::kCore, f.get());
    std::vector<std::vector<ClockedUnit*>> groups;
    for (std::size_t i = 0; i < leaders.size(); ++i) {
      engine.set_wakes(leaders[i].get(), {followers[i].get()});
      engine.set_wakes(followers[i].get(), {&sink});
      groups.push_back({leaders[i].get(), followers[i].get()});
    }
    engine.set_tiles(ClockDomain::kCore, groups);
    engine.set_threads(threads);
  }
  void run() {
    engine.run_until([&] {
      for (auto& l : leaders) {
        if (l->busy()) return false;
      }
      for (auto& f : followers) {
        if (f->busy()) return false;
      }
      return !sink.busy();
    });
  }

  Sink sink;
  std::vector<std::unique_ptr<Leader>> leaders;
  std::vector<std::unique_ptr<Follower>> followers;
  Engine engine;
};

TEST(EngineTiles, FollowerTicksInTheSameStepAsItsLeaderOnAnyThreadCount) {
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    Rig rig(5, threads);
    rig.run();
    // Each leader ticks at cycles 1..6 and its follower in the same steps.
    for (const auto& f : rig.followers) {
      EXPECT_EQ(f->ticks, (std::vector<Picos>{1000, 2000, 3000, 4000, 5000, 6000}))
          << threads << " threads";
    }
    // The sink hears tile i's item j at cycle j + 5 - i, tile by tile.
    ASSERT_EQ(rig.sink.received.size(), 30u) << threads << " threads";
    EXPECT_EQ(rig.sink.received[0], (std::pair<Picos, int>{2000, 4001})) << threads;
    EXPECT_EQ(rig.sink.received[1], (std::pair<Picos, int>{3000, 3001})) << threads;
    EXPECT_EQ(rig.sink.received[2], (std::pair<Picos, int>{3000, 4002})) << threads;
    EXPECT_EQ(rig.sink.received.back(), (std::pair<Picos, int>{11000, 6})) << threads;
  }
}

TEST(EngineTiles, SinkHearsTheSameSequenceForEveryThreadCount) {
  Rig one(16, 1, 40);
  one.run();
  for (unsigned threads : {2u, 3u, 8u}) {
    Rig many(16, threads, 40);
    many.run();
    EXPECT_EQ(many.sink.received, one.sink.received) << threads << " threads";
    EXPECT_EQ(many.engine.cycle(ClockDomain::kCore), one.engine.cycle(ClockDomain::kCore));
  }
}

// Two tiles wait for each other inside one step: only threads can meet.
bool tiles_meet(unsigned threads) {
  Rig rig(2, threads, 1);
  std::atomic<int> arrived{0};
  std::atomic<bool> met{false};
  // The first to arrive waits (a second at most) for the other.
  auto rendezvous = [&] {
    if (arrived.fetch_add(1) != 0) return;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (arrived.load() < 2 && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::yield();
    }
    met = arrived.load() >= 2;
  };
  rig.leaders[0]->on_tick = rendezvous;
  rig.leaders[1]->on_tick = rendezvous;
  rig.engine.set_threads(threads);
  Picos limit = 0;
  rig.engine.run_until([&] { return (limit += 1) > 1; });  // one step: cycle 0
  return met;
}

TEST(EngineTiles, TilesOfOneStepRunOnDifferentThreads) {
  EXPECT_TRUE(tiles_meet(2));
  EXPECT_TRUE(tiles_meet(4));
}

TEST(EngineTiles, OneThreadTicksTilesOneAfterAnother) {
  EXPECT_FALSE(tiles_meet(1));
}

TEST(EngineTiles, ErrorOfTheFirstFailingTileReachesTheCaller) {
  Rig rig(4, 4);
  rig.leaders[2]->on_tick = [] { throw Error("tile 2 failed"); };
  rig.leaders[3]->on_tick = [] { throw Error("tile 3 failed"); };
  try {
    rig.run();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "tile 2 failed");
  }
}

TEST(EngineTiles, BadTilesAreRefused) {
  Engine engine(Clock{kCycle}, Clock{kCycle}, Clock{kCycle}, 1000);
  Sink sink(1);
  Leader a("a", 3), b("b", 3), c("c", 3);
  Follower fa("fa", a, sink, 0, kCycle);
  for (ClockedUnit* u : std::vector<ClockedUnit*>{&a, &b, &c, &fa}) {
    engine.add(ClockDomain::kCore, u);
  }
  auto refused = [&](const std::vector<std::vector<ClockedUnit*>>& tiles) -> std::string {
    try {
      engine.set_tiles(ClockDomain::kCore, tiles);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(refused({{&a}}), "internal: tile unit a declares no wakes");
  engine.set_wakes(&a, {&fa});
  engine.set_wakes(&b, {});
  engine.set_wakes(&c, {});
  engine.set_wakes(&fa, {});
  EXPECT_EQ(refused({{&a}, {&c}}),
            "internal: the tiles of a clock domain are not a run of consecutive units");
  EXPECT_EQ(refused({{&a, &b}, {&b}}), "internal: b is in two tiles");
  EXPECT_EQ(refused({{&a, &b, &c}, {&fa}}), "internal: tile unit a wakes fa of another tile");
  EXPECT_EQ(refused({{&sink}}), "internal: tile unit test.sink is not in its clock domain");
  EXPECT_EQ(refused({{&a, &fa}, {&b}, {&c}}), "");
}

}  // namespace
}  // namespace sassim::memsys
