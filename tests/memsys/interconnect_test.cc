// The crossbar alone, between mock SM and slice queues.
#include "memsys/interconnect.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "ground/engine.h"
#include "ground/error.h"

namespace sassim::memsys {
namespace {

// Two SMs and one or more slices behind a crossbar with 10-cycle latency at 1 GHz.
struct NocRig {
  // slice_port: interconnect.slice_port_bytes_per_cycle, on an L2 clock of l2_period_ps.
  NocRig(std::size_t slice_queue, std::uint32_t port_bytes, std::uint32_t slices = 1,
         std::uint32_t partitions = 1, std::uint32_t far_latency = 0, std::uint32_t slice_port = 0,
         Picos l2_period_ps = 1000)
      : map(slices, 1, "linear"), routes(NocRoutes::crossbar(2, slices, partitions)) {
    config.set_latency_cycles(10);
    config.set_far_partition_latency_cycles(far_latency);
    config.set_port_bytes_per_cycle(port_bytes);
    config.set_slice_port_bytes_per_cycle(slice_port);
    for (int i = 0; i < 2; ++i) {
      sm_requests.push_back(std::make_unique<Link<MemRequest>>(64, &bell));
      sm_responses.push_back(std::make_unique<Link<MemResponse>>(64, nullptr));
    }
    for (std::uint32_t j = 0; j < slices; ++j) {
      slice_requests.push_back(std::make_unique<Link<MemRequest>>(slice_queue, nullptr));
      slice_responses.push_back(std::make_unique<Link<MemResponse>>(64, &bell));
    }
    for (auto& l : sm_requests) sm_request_ptrs.push_back(l.get());
    for (auto& l : sm_responses) sm_response_ptrs.push_back(l.get());
    for (auto& l : slice_requests) slice_request_ptrs.push_back(l.get());
    for (auto& l : slice_responses) slice_response_ptrs.push_back(l.get());
    l2_period = l2_period_ps;
    build();
  }
  // (Re)makes the crossbar from `config`.
  void build() {
    noc =
        std::make_unique<Interconnect>(config, Clock{1000}, Clock{l2_period}, 32, map, routes,
                                       Interconnect::Ports{sm_request_ptrs, sm_response_ptrs,
                                                           slice_request_ptrs, slice_response_ptrs},
                                       bell);
  }
  void send(std::uint16_t sm, ReqKind kind, std::uint32_t sectors, std::uint64_t line = 0) {
    sm_requests[sm]->push(
        MemRequest{
            .line = line, .sector_mask = sectors, .full_mask = 0, .tag = 0, .sm = sm, .kind = kind},
        0, 1);
  }

  config::InterconnectConfig config;
  Picos l2_period = 1000;
  AddressMap map;
  NocRoutes routes;
  Doorbell bell;
  std::vector<std::unique_ptr<Link<MemRequest>>> sm_requests, slice_requests;
  std::vector<std::unique_ptr<Link<MemResponse>>> sm_responses, slice_responses;
  std::vector<Link<MemRequest>*> sm_request_ptrs, slice_request_ptrs;
  std::vector<Link<MemResponse>*> sm_response_ptrs, slice_response_ptrs;
  std::unique_ptr<Interconnect> noc;
};

TEST(Interconnect, RoundRobinAlternatesSourcesFromAFixedStart) {
  NocRig rig(1, 1024);  // the slice queue holds one packet: one grant per cycle
  for (int k = 0; k < 2; ++k) {
    rig.send(0, ReqKind::kRead, 1);
    rig.send(1, ReqKind::kRead, 1);
  }
  std::vector<std::uint16_t> order;
  for (std::uint64_t cycle = 1; cycle <= 4; ++cycle) {
    EXPECT_TRUE(rig.noc->tick(cycle, cycle * 1000));
    ASSERT_EQ(rig.slice_requests[0]->size(), 1u);
    EXPECT_EQ(rig.slice_requests[0]->front_ready_ps(), (cycle + 10) * 1000);
    order.push_back(rig.slice_requests[0]->pop().sm);
  }
  EXPECT_EQ(order, (std::vector<std::uint16_t>{0, 1, 0, 1}));
  EXPECT_EQ(rig.noc->request_packets(), 4u);
}

TEST(Interconnect, FullDestinationBlocksAndRetriesNextCycle) {
  NocRig rig(1, 1024);
  rig.send(0, ReqKind::kRead, 1);
  rig.send(0, ReqKind::kRead, 1);
  EXPECT_TRUE(rig.noc->tick(1, 1000));
  EXPECT_EQ(rig.noc->next_event_ps(), 2000u);
  EXPECT_FALSE(rig.noc->tick(2, 2000));
  EXPECT_EQ(rig.sm_requests[0]->size(), 1u);
}

TEST(Interconnect, PortBandwidthSpacesWritePackets) {
  // Writes of 4 sectors are 8 + 128 = 136 bytes; the port moves 64 bytes per cycle, so
  // packet i leaves at cycle 1 + floor(i * 136 / 64).
  NocRig rig(64, 64);
  for (int i = 0; i < 10; ++i) rig.send(0, ReqKind::kWrite, 0xf);
  Engine engine(Clock{1000}, Clock{1000}, Clock{1000}, 1000);
  engine.add(ClockDomain::kL2, rig.noc.get());
  engine.run_until([&] { return rig.sm_requests[0]->empty(); });
  ASSERT_EQ(rig.slice_requests[0]->size(), 10u);
  for (std::uint64_t i = 0; i < 10; ++i) {
    EXPECT_EQ(rig.slice_requests[0]->front_ready_ps(), (1 + i * 136 / 64 + 10) * 1000) << i;
    rig.slice_requests[0]->pop();
  }
}

TEST(Interconnect, RequestPortSpacesWritesWhileResponsesKeepThePort) {
  // interconnect.request_port_bytes_per_cycle = 34: 136-byte writes leave every
  // 136 / 34 = 4 cycles, where 64 bytes a cycle would send them 2 or 3 apart; two
  // 136-byte responses into the same SM still start floor(136 / 64) = 2 cycles apart.
  NocRig rig(64, 64);
  rig.config.set_request_port_bytes_per_cycle(34);
  rig.build();
  for (int i = 0; i < 4; ++i) rig.send(0, ReqKind::kWrite, 0xf);
  for (std::uint32_t tag : {1u, 2u}) {
    rig.slice_responses[0]->push(
        MemResponse{.line = 0, .sector_mask = 0xf, .tag = tag, .sm = 1, .kind = ReqKind::kRead}, 0,
        1);
  }
  Engine engine(Clock{1000}, Clock{1000}, Clock{1000}, 1000);
  engine.add(ClockDomain::kL2, rig.noc.get());
  engine.run_until([&] { return rig.sm_requests[0]->empty(); });
  ASSERT_EQ(rig.slice_requests[0]->size(), 4u);
  for (std::uint64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(rig.slice_requests[0]->front_ready_ps(), (1 + 4 * i + 10) * 1000) << i;
    rig.slice_requests[0]->pop();
  }
  ASSERT_EQ(rig.sm_responses[1]->size(), 2u);
  EXPECT_EQ(rig.sm_responses[1]->front_ready_ps(), 11'000u);
  rig.sm_responses[1]->pop();
  EXPECT_EQ(rig.sm_responses[1]->front_ready_ps(), 13'000u);
}

TEST(Interconnect, ResponsesAreRoutedToTheirSm) {
  NocRig rig(64, 64);
  rig.slice_responses[0]->push(
      MemResponse{.line = 3, .sector_mask = 1, .tag = 9, .sm = 1, .kind = ReqKind::kRead}, 0, 1);
  EXPECT_TRUE(rig.noc->tick(1, 1000));
  EXPECT_TRUE(rig.sm_responses[0]->empty());
  ASSERT_EQ(rig.sm_responses[1]->size(), 1u);
  EXPECT_EQ(rig.sm_responses[1]->front().tag, 9u);
  EXPECT_EQ(rig.sm_responses[1]->front_ready_ps(), 11'000u);
  EXPECT_EQ(rig.noc->response_packets(), 1u);
}

TEST(Interconnect, ResponsesToOneSmSerializeWithoutBlockingOthers) {
  // Two slices answer SM 0 in the same cycle and a third response, behind the second
  // in its slice's queue, goes to SM 1: the SM 0 port takes 136-byte packets at 64 bytes
  // per cycle, so the second starts floor(136 / 64) = 2 cycles after the first, while
  // the response to SM 1 is not held back.
  NocRig rig(64, 64, 2);
  auto respond = [&](std::size_t slice, std::uint16_t sm, std::uint32_t tag) {
    rig.slice_responses[slice]->push(
        MemResponse{.line = 0, .sector_mask = 0xf, .tag = tag, .sm = sm, .kind = ReqKind::kRead}, 0,
        1);
  };
  respond(0, 0, 1);
  respond(1, 0, 2);
  respond(1, 1, 3);
  EXPECT_TRUE(rig.noc->tick(1, 1000));
  ASSERT_EQ(rig.sm_responses[0]->size(), 2u);
  EXPECT_EQ(rig.sm_responses[0]->front_ready_ps(), 11'000u);
  rig.sm_responses[0]->pop();
  EXPECT_EQ(rig.sm_responses[0]->front_ready_ps(), 13'000u);
  ASSERT_EQ(rig.sm_responses[1]->size(), 1u);
  EXPECT_EQ(rig.sm_responses[1]->front_ready_ps(), 11'000u);
}

// Four 4-sector read responses (136 bytes each) queued at slice 0 for the two SMs in
// turn (wide SM ports: only the slice's port can space them); the crossbar ticks at
// 1 GHz. Returns the cycles they left in.
std::vector<std::uint64_t> slice_port_departures(std::uint32_t slice_port, Picos l2_period_ps) {
  NocRig rig(64, 1024, 1, 1, 0, slice_port, l2_period_ps);
  for (std::uint16_t i = 0; i < 4; ++i) {
    rig.slice_responses[0]->push(MemResponse{.line = i,
                                             .sector_mask = 0xf,
                                             .tag = i,
                                             .sm = static_cast<std::uint16_t>(i % 2),
                                             .kind = ReqKind::kRead},
                                 0, 1);
  }
  // Ticks only when the crossbar asks to be (as the engine does), so a late wake-up
  // shows as a late departure.
  std::vector<std::uint64_t> left;
  std::uint64_t cycle = 1;
  for (int ticks = 0; ticks < 20 && left.size() < 4; ++ticks) {
    const std::size_t before = rig.noc->response_packets();
    rig.noc->tick(cycle, cycle * 1000);
    for (std::size_t k = before; k < rig.noc->response_packets(); ++k) left.push_back(cycle);
    cycle = std::max(cycle + 1, (rig.noc->next_event_ps() + 999) / 1000);
  }
  return left;
}

TEST(Interconnect, SlicePortSpacesItsResponsesOnTheL2Clock) {
  using V = std::vector<std::uint64_t>;
  EXPECT_EQ(slice_port_departures(0, 1000), (V{1, 1, 1, 1})) << "0: no limit";
  // 68 bytes a cycle: a 136-byte packet leaves a 68-byte deficit, paid back after 2 cycles.
  EXPECT_EQ(slice_port_departures(68, 1000), (V{1, 3, 5, 7}));
  // The same port on a 2 GHz L2 clock refills twice per crossbar cycle.
  EXPECT_EQ(slice_port_departures(68, 500), (V{1, 2, 3, 4}));
  EXPECT_EQ(slice_port_departures(136, 1000), (V{1, 2, 3, 4}));
}

TEST(Interconnect, FarPartitionAddsItsLatencyBothWays) {
  // SM 0 is near partition 0 (slice 0), SM 1 near partition 1 (slice 1).
  NocRig rig(4, 1024, 2, 2, 7);
  EXPECT_FALSE(rig.routes.far(0, 0));
  EXPECT_TRUE(rig.routes.far(0, 1));
  EXPECT_TRUE(rig.routes.far(1, 0));
  rig.send(0, ReqKind::kRead, 1, 0);
  rig.send(1, ReqKind::kRead, 1, 0);
  EXPECT_TRUE(rig.noc->tick(1, 1000));
  ASSERT_EQ(rig.slice_requests[0]->size(), 2u);
  EXPECT_EQ(rig.slice_requests[0]->pop().sm, 0u);
  EXPECT_EQ(rig.slice_requests[0]->front_ready_ps(), (1 + 10 + 7) * 1000u);  // far: 10 + 7
  rig.slice_responses[1]->push(
      MemResponse{.line = 1, .sector_mask = 1, .tag = 0, .sm = 0, .kind = ReqKind::kRead}, 0, 2000);
  EXPECT_TRUE(rig.noc->tick(2, 2000));
  ASSERT_EQ(rig.sm_responses[0]->size(), 1u);
  EXPECT_EQ(rig.sm_responses[0]->front_ready_ps(), (2 + 10 + 7) * 1000u);
}

TEST(NocRoutes, PartitionsSplitSlicesAndSmsIntoConsecutiveGroups) {
  const NocRoutes routes = NocRoutes::crossbar(132, 80, 2);
  EXPECT_EQ(routes.partition_of_slice(39), 0u);
  EXPECT_EQ(routes.partition_of_slice(40), 1u);
  EXPECT_EQ(routes.partition_of_sm(65), 0u);
  EXPECT_EQ(routes.partition_of_sm(66), 1u);
  EXPECT_EQ(routes.hops(0, 79), 1u);  // still one crossbar link; far-ness adds latency
  EXPECT_THROW(NocRoutes::crossbar(1, 80, 2), Error);
}

}  // namespace
}  // namespace sassim::memsys
