// The same input twice gives identical stats and completion times.
#include <gtest/gtest.h>

#include "memsys_test_support.h"

namespace sassim::memsys {
namespace {

using testing::Rig;

struct Outcome {
  std::map<std::string, double> stats;
  std::vector<std::vector<std::uint32_t>> orders;
  std::vector<std::map<std::uint32_t, Picos>> times;
};

// A mixed workload from a fixed pseudo-random sequence: loads, stores, atomics and
// shared accesses from four SMs over a footprint larger than the L2.
Outcome run_mixed() {
  config::GpuConfig c = testing::small_config();
  c.set_num_sms(4);
  c.mutable_l2()->set_address_hash("xor");
  Rig rig(c);
  std::uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  for (std::uint32_t sm = 0; sm < 4; ++sm) {
    for (std::uint32_t token = 0; token < 300; ++token) {
      const std::uint64_t base = (next() % 8192) * 128;
      const std::uint64_t stride = std::uint64_t{4} << (next() % 6);
      const auto kind_pick = next() % 10;
      isa::MemSpace space = isa::MemSpace::kGlobal;
      isa::MemKind kind = isa::MemKind::kLoad;
      if (kind_pick < 2) kind = isa::MemKind::kStore;
      if (kind_pick == 2) kind = isa::MemKind::kAtomic;
      if (kind_pick == 3) space = isa::MemSpace::kShared;
      rig.sm(sm).schedule(token * 20 * 1000, token, space, kind, testing::strided(base, stride));
    }
  }
  rig.run();
  rig.drain();
  Outcome out;
  out.stats = rig.stats().values;
  for (std::uint32_t sm = 0; sm < 4; ++sm) {
    out.orders.push_back(rig.sm(sm).completion_order());
    std::map<std::uint32_t, Picos> times;
    for (std::uint32_t token = 0; token < 300; ++token)
      times[token] = rig.sm(sm).completed_at(token);
    out.times.push_back(times);
  }
  return out;
}

TEST(Determinism, SameInputTwiceGivesIdenticalResults) {
  const Outcome a = run_mixed();
  const Outcome b = run_mixed();
  EXPECT_EQ(a.stats, b.stats);
  EXPECT_EQ(a.orders, b.orders);
  EXPECT_EQ(a.times, b.times);
  // The workload really exercised the hierarchy.
  EXPECT_GT(a.stats.at("gpu.sm[0].l1.sector_hits"), 0);
  EXPECT_GT(a.stats.at("gpu.sm[0].l1.shared_accesses"), 0);
  EXPECT_GT(a.stats.at("gpu.noc.response_packets"), 0);
  double writebacks = 0;
  for (const auto& [name, value] : a.stats) {
    if (name.find(".writebacks") != std::string::npos) writebacks += value;
  }
  EXPECT_GT(writebacks, 0);
}

}  // namespace
}  // namespace sassim::memsys
