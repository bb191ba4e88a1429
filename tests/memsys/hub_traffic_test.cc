// The collectives' traffic source (memsys/hub_traffic.h) against mock Links, and its
// port on the crossbar: requests paced exactly over their window, whole lines from two
// address ranges, exact byte counts, a full Link that holds them back; an agent port
// that is one hop from every slice, never far, and gets its own responses.
#include "memsys/hub_traffic.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "memsys/interconnect.h"

namespace sassim::memsys {
namespace {

struct HubRig {
  explicit HubRig(std::size_t capacity = 64)
      : to_noc(capacity, nullptr),
        from_noc(64, &bell),
        hub(Clock{1000}, 128, 32, 9, to_noc, from_noc, bell) {}
  // Ticks cycles [first, last] and takes what each sent: (cycle, request).
  std::vector<std::pair<std::uint64_t, MemRequest>> run(std::uint64_t first, std::uint64_t last) {
    std::vector<std::pair<std::uint64_t, MemRequest>> sent;
    for (std::uint64_t c = first; c <= last; ++c) {
      hub.tick(c, c * 1000);
      while (!to_noc.empty()) sent.emplace_back(c, to_noc.pop());
    }
    return sent;
  }
  Link<MemRequest> to_noc;
  Doorbell bell;
  Link<MemResponse> from_noc;
  HubTraffic hub;
};

// Without collectives (every single-GPU run) the hub has no event: the engine never
// ticks it, so it costs nothing per cycle.
TEST(HubTraffic, WithoutAFlowItHasNoEventAndHoldsNoWork) {
  HubRig rig;
  EXPECT_EQ(rig.hub.next_event_ps(), kNever);
  EXPECT_FALSE(rig.hub.busy());
  EXPECT_FALSE(rig.hub.sending());
  rig.hub.add_flow(0, 0, 0, 0);  // nothing to move: no flow
  EXPECT_EQ(rig.hub.next_event_ps(), kNever);
  EXPECT_EQ(rig.hub.counters().flows, 0u);
  rig.hub.add_flow(0, 0, 0, 128);  // one write, no response to wait for
  EXPECT_EQ(rig.hub.next_event_ps(), 0u);
  EXPECT_EQ(rig.run(0, 0).size(), 1u);
  EXPECT_EQ(rig.hub.next_event_ps(), kNever);
  EXPECT_FALSE(rig.hub.busy());
}

TEST(HubTraffic, SpreadsReadsAndWritesEvenlyOverTheWindow) {
  HubRig rig;
  // 8 reads due every 4 cycles and 4 writes every 8, from cycle 10 to 42.
  rig.hub.add_flow(10'000, 42'000, 1024, 512);
  EXPECT_EQ(rig.hub.next_event_ps(), 10'000u);
  const auto sent = rig.run(0, 60);
  std::vector<std::pair<std::uint64_t, bool>> when;  // (cycle, write)
  for (const auto& [cycle, r] : sent) when.emplace_back(cycle, r.kind == ReqKind::kWrite);
  const std::vector<std::pair<std::uint64_t, bool>> expected = {
      {10, false}, {10, true}, {14, false}, {18, false}, {18, true}, {22, false},
      {26, false}, {26, true}, {30, false}, {34, false}, {34, true}, {38, false}};
  EXPECT_EQ(when, expected);
  std::uint64_t read_line = kHubReadBase / 128, write_line = kHubWriteBase / 128;
  for (const auto& [cycle, r] : sent) {
    EXPECT_EQ(r.sm, 9u);
    EXPECT_EQ(r.sector_mask, 0xFu);
    EXPECT_EQ(r.line, r.kind == ReqKind::kWrite ? write_line++ : read_line++);
    if (r.kind == ReqKind::kWrite) {
      EXPECT_EQ(r.full_mask, 0xFu);
    }
  }
  EXPECT_EQ(rig.hub.counters().read_bytes, 1024u);
  EXPECT_EQ(rig.hub.counters().write_bytes, 512u);
  EXPECT_EQ(rig.hub.counters().read_requests, 8u);
  EXPECT_EQ(rig.hub.counters().write_requests, 4u);
  EXPECT_EQ(rig.hub.counters().flows, 1u);
  EXPECT_FALSE(rig.hub.sending());
  EXPECT_TRUE(rig.hub.busy());  // its reads' responses are not back
}

TEST(HubTraffic, ALastPartLineSendsWholeSectorsOnly) {
  HubRig rig;
  rig.hub.add_flow(0, 2'000, 200, 0);  // 128 + 72 bytes: 4 sectors, then 3
  const auto sent = rig.run(0, 3);
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0].first, 0u);
  EXPECT_EQ(sent[1].first, 1u);
  EXPECT_EQ(sent[0].second.sector_mask, 0xFu);
  EXPECT_EQ(sent[1].second.sector_mask, 0x7u);
  EXPECT_EQ(rig.hub.counters().read_bytes, 224u);
}

TEST(HubTraffic, AFullLinkHoldsRequestsBackAndTheyCatchUp) {
  HubRig rig(2);
  rig.hub.add_flow(5'000, 5'000, 6 * 128, 0);  // a window of no time: all due at once
  rig.hub.tick(5, 5'000);
  EXPECT_EQ(rig.to_noc.size(), 2u);
  EXPECT_EQ(rig.hub.next_event_ps(), 6'000u);  // retried the next cycle
  rig.hub.tick(6, 6'000);
  EXPECT_EQ(rig.to_noc.size(), 2u);  // no room yet
  rig.to_noc.pop();
  rig.hub.tick(7, 7'000);
  EXPECT_EQ(rig.to_noc.size(), 2u);
  EXPECT_EQ(rig.hub.counters().read_requests, 3u);
  const auto rest = rig.run(8, 10);
  EXPECT_EQ(rig.hub.counters().read_requests, 6u);
  EXPECT_FALSE(rig.hub.sending());
}

TEST(HubTraffic, TakesItsResponsesAndIsIdleOnceAllAreBack) {
  HubRig rig;
  rig.hub.add_flow(0, 0, 256, 0);
  rig.run(0, 0);
  EXPECT_TRUE(rig.hub.busy());
  for (int i = 0; i < 2; ++i)
    rig.from_noc.push(MemResponse{.line = 0, .sector_mask = 0xF, .sm = 9}, 3'000, 4'000);
  EXPECT_EQ(rig.hub.next_event_ps(), 4'000u);
  EXPECT_TRUE(rig.hub.tick(4, 4'000));
  EXPECT_FALSE(rig.hub.busy());
  EXPECT_EQ(rig.hub.counters().responses, 2u);
}

TEST(HubTraffic, TheAgentPortIsOneHopFromEverySliceAndNeverFar) {
  // Two SMs near partitions 0 and 1 of two slices, 10 cycles a hop, 7 more to be far.
  config::InterconnectConfig config;
  config.set_latency_cycles(10);
  config.set_far_partition_latency_cycles(7);
  config.set_port_bytes_per_cycle(64);
  const AddressMap map(2, 1, "linear");
  const NocRoutes routes = NocRoutes::crossbar(2, 2, 2);
  Doorbell bell;
  std::vector<std::unique_ptr<Link<MemRequest>>> requests;
  std::vector<std::unique_ptr<Link<MemResponse>>> responses;
  std::vector<Link<MemRequest>*> sm_in, slice_out, agent_in;
  std::vector<Link<MemResponse>*> sm_out, slice_in, agent_out;
  auto request = [&](Doorbell* b) {
    return requests.emplace_back(new Link<MemRequest>(64, b)).get();
  };
  auto response = [&](Doorbell* b) {
    return responses.emplace_back(new Link<MemResponse>(64, b)).get();
  };
  for (int i = 0; i < 2; ++i) {
    sm_in.push_back(request(&bell));
    sm_out.push_back(response(nullptr));
    slice_out.push_back(request(nullptr));
    slice_in.push_back(response(&bell));
  }
  agent_in.push_back(request(&bell));
  agent_out.push_back(response(nullptr));
  Interconnect noc(config, Clock{1000}, Clock{1000}, 32, map, routes,
                   Interconnect::Ports{sm_in, sm_out, slice_out, slice_in, {}, agent_in, agent_out},
                   bell);
  // SM 0 to slice 1 is far (10 + 7 cycles); the agent (source 2) to either slice is not.
  sm_in[0]->push(MemRequest{.line = 1, .sector_mask = 1, .sm = 0}, 0, 1);
  noc.tick(1, 1'000);
  ASSERT_EQ(slice_out[1]->size(), 1u);
  EXPECT_EQ(slice_out[1]->front_ready_ps(), 18'000u);
  EXPECT_EQ(slice_out[1]->pop().sm, 0u);
  agent_in[0]->push(MemRequest{.line = 1, .sector_mask = 1, .sm = 2}, 1'000, 2'000);
  agent_in[0]->push(MemRequest{.line = 0, .sector_mask = 1, .sm = 2}, 1'000, 2'000);
  noc.tick(2, 2'000);
  ASSERT_EQ(slice_out[1]->size(), 1u);
  ASSERT_EQ(slice_out[0]->size(), 1u);
  EXPECT_EQ(slice_out[1]->front_ready_ps(), 12'000u);
  EXPECT_EQ(slice_out[0]->front_ready_ps(), 12'000u);
  // Its response comes back to its own Link, one hop later.
  slice_in[1]->push(MemResponse{.line = 1, .sector_mask = 1, .sm = 2}, 20'000, 21'000);
  noc.tick(21, 21'000);
  ASSERT_EQ(agent_out[0]->size(), 1u);
  EXPECT_EQ(agent_out[0]->front_ready_ps(), 31'000u);
  EXPECT_TRUE(sm_out[0]->empty());
  EXPECT_TRUE(sm_out[1]->empty());
}

}  // namespace
}  // namespace sassim::memsys
