// The memory system built from a config: owns the links and doorbells that connect
// the units, and the units themselves, wired once at construction.
#include "memsys/memory_system.h"

#include <algorithm>
#include <cstdint>
#include <deque>

#include "configs/derived.h"
#include "ground/link.h"
#include "memsys/address_map.h"
#include "memsys/coalescer.h"
#include "memsys/dram_channel.h"
#include "memsys/interconnect.h"
#include "memsys/l1_unit.h"
#include "memsys/l2_slice.h"
#include "memsys/memsys_config.h"
#include "memsys/noc_routes.h"

namespace sassim::memsys {
namespace {

// Links of one kind with stable addresses, plus the raw pointers units take.
template <typename T>
class LinkSet {
 public:
  Link<T>& add(std::size_t capacity, Doorbell* receiver) {
    Link<T>& link = links_.emplace_back(capacity, receiver);
    pointers_.push_back(&link);
    return link;
  }
  std::span<Link<T>* const> all() const { return pointers_; }
  Link<T>& operator[](std::size_t i) { return *pointers_[i]; }

 private:
  std::deque<Link<T>> links_;
  std::vector<Link<T>*> pointers_;
};

config::GpuConfig checked(const config::GpuConfig& config) {
  check_memsys_config(config);
  return config;
}

// Crossbar cycles (of `clock`) of the longest SM-slice route, one way; the link between
// the partitions runs on the L2 clock.
std::size_t longest_route_cycles(const config::InterconnectConfig& noc, const NocRoutes& routes,
                                 Clock clock, Clock l2) {
  std::uint32_t hops = 0;
  for (std::uint32_t sm = 0; sm < routes.sms(); ++sm) {
    for (std::uint32_t j = 0; j < routes.slices(); ++j) hops = std::max(hops, routes.hops(sm, j));
  }
  const Picos far = routes.partitions() > 1 ? noc.far_partition_latency_cycles() * l2.period_ps : 0;
  return std::size_t{hops} * noc.latency_cycles() + (far + clock.period_ps - 1) / clock.period_ps;
}

// The L2 slices as holders of far-partition copies (interconnect.replicate_far_reads).
class SliceReplicas final : public ReplicaStore {
 public:
  explicit SliceReplicas(std::vector<std::unique_ptr<L2Slice>>& slices) : slices_(slices) {}
  bool holds(std::uint32_t slice, std::uint64_t line, std::uint32_t sectors) override {
    return slices_[slice]->replica_holds(line, sectors);
  }
  void install(std::uint32_t slice, std::uint64_t line, std::uint32_t sectors) override {
    slices_[slice]->install_replica(line, sectors);
  }
  void drop(std::uint32_t slice, std::uint64_t line) override {
    slices_[slice]->drop_replica(line);
  }
  void pass(std::uint32_t slice, const MemRequest& request, Picos now) override {
    slices_[slice]->pass_through(request, now);
  }

 private:
  std::vector<std::unique_ptr<L2Slice>>& slices_;
};

class GpuMemorySystem final : public MemorySystem {
 public:
  explicit GpuMemorySystem(const config::GpuConfig& config);

  SmMemoryPort& port(std::uint32_t sm_id) override { return *l1s_.at(sm_id); }
  HubTraffic& hub() override { return *hub_; }
  std::vector<std::pair<ClockDomain, ClockedUnit*>> units() override;
  // Each DRAM channel is a tile: it reads only its own request Link and holds its
  // fills for publish() (every channel fills every slice). L2 slices that send to the
  // same channels are one tile (they share those request Links, whose room decides
  // what they do); none when near slices fetch far lines from their home slices.
  std::vector<std::pair<ClockDomain, std::vector<std::vector<ClockedUnit*>>>> tiles() override {
    std::vector<std::vector<ClockedUnit*>> channels;
    for (auto& c : channels_) channels.push_back({c.get()});
    std::vector<std::pair<ClockDomain, std::vector<std::vector<ClockedUnit*>>>> out{
        {ClockDomain::kDram, std::move(channels)}};
    if (!fetches_from_homes_) out.emplace_back(ClockDomain::kL2, slice_tiles());
    return out;
  }
  void memcpy_to_device(std::uint64_t address, std::uint64_t bytes) override;
  void warm_l2(std::span<const std::uint64_t> addresses, std::uint32_t bytes_per_thread,
               bool write) override {
    coalesce(addresses, bytes_per_thread, l2_lines_, warm_lines_);
    for (const LineAccess& a : warm_lines_.lines) {
      slices_[map_.slice_of(a.line)]->warm(a.line, a.sector_mask, a.full_mask, write);
    }
  }
  void flush_l2() override {
    for (auto& slice : slices_) slice->flush();
  }

 private:
  config::GpuConfig config_;
  AddressMap map_;
  LineGeometry l2_lines_{.line_bytes = config_.l2().line_bytes(),
                         .sector_bytes = config_.l2().sector_bytes()};
  CoalescedLines warm_lines_;  // warm_l2's scratch
  NocRoutes routes_;
  std::deque<Doorbell> doorbells_;
  LinkSet<MemRequest> sm_requests_, slice_requests_, hub_requests_;
  LinkSet<MemResponse> sm_responses_, slice_responses_, hub_responses_;
  LinkSet<DramRequest> dram_requests_;
  LinkSet<DramResponse> dram_fills_;
  std::vector<std::unique_ptr<DramChannel>> channels_;
  std::vector<std::unique_ptr<L2Slice>> slices_;
  SliceReplicas replicas_{slices_};
  std::unique_ptr<Interconnect> noc_;
  std::vector<std::unique_ptr<L1Unit>> l1s_;
  std::unique_ptr<HubTraffic> hub_;

  bool noc_core_clock() const { return config_.interconnect().core_clock(); }
  // The slices grouped by the DRAM channels they send to, in slice order.
  std::vector<std::vector<ClockedUnit*>> slice_tiles() const;
  bool fetches_from_homes_ = false;
};

GpuMemorySystem::GpuMemorySystem(const config::GpuConfig& config)
    : config_(checked(config)),
      map_(config_.l2().slices(), config_.dram().channels(), config_.l2().address_hash()),
      routes_(NocRoutes::crossbar(config_.num_sms(), config_.l2().slices(),
                                  config_.interconnect().l2_partitions())) {
  const DomainClocks clocks = domain_clocks(config_);
  const std::uint32_t sms = config_.num_sms();
  const std::uint32_t slices = config_.l2().slices();
  const std::uint32_t channels = config_.dram().channels();
  const std::uint32_t sector_bytes = config_.l2().sector_bytes();
  const std::size_t noc_queue = config_.interconnect().queue_entries();
  // The links out of the crossbar count the packets still on their wires against
  // their capacity, so they hold one more packet per cycle of the longest route.
  const Clock noc_clock = noc_core_clock() ? clocks.core : clocks.l2;
  const std::size_t noc_wires =
      longest_route_cycles(config_.interconnect(), routes_, noc_clock, clocks.l2);

  Doorbell& noc_bell = doorbells_.emplace_back();
  std::vector<Doorbell*> channel_bells;
  for (std::uint32_t k = 0; k < channels; ++k) {
    channel_bells.push_back(&doorbells_.emplace_back());
    dram_requests_.add(config_.dram().queue_entries(), channel_bells.back());
  }
  // A slice's fill queue holds every DRAM read it can have in flight (at most one per
  // sector of each MSHR), so a channel never waits on it.
  const std::size_t fill_capacity =
      std::size_t{config_.l2().mshr_entries()} * (config_.l2().line_bytes() / sector_bytes) + 1;
  std::vector<Doorbell*> slice_bells;
  for (std::uint32_t j = 0; j < slices; ++j) {
    Doorbell* bell = &doorbells_.emplace_back();
    slice_bells.push_back(bell);
    slice_requests_.add(noc_queue + noc_wires, bell);
    dram_fills_.add(fill_capacity, bell);
    slice_responses_.add(noc_queue, &noc_bell);
  }
  std::vector<Doorbell*> l1_bells;
  for (std::uint32_t i = 0; i < sms; ++i) {
    Doorbell* bell = &doorbells_.emplace_back();
    l1_bells.push_back(bell);
    sm_requests_.add(noc_queue, &noc_bell);
    sm_responses_.add(noc_queue + noc_wires, bell);
  }
  Doorbell& hub_bell = doorbells_.emplace_back();
  hub_requests_.add(noc_queue, &noc_bell);
  hub_responses_.add(noc_queue + noc_wires, &hub_bell);

  for (std::uint32_t k = 0; k < channels; ++k) {
    channels_.push_back(std::make_unique<DramChannel>(k, config_.dram(), clocks.dram, sector_bytes,
                                                      config_.l2().line_bytes(), dram_requests_[k],
                                                      dram_fills_.all(), *channel_bells[k]));
  }
  // Near slices fetch far lines from their home slices over the partitions' link.
  const config::InterconnectConfig& noc = config_.interconnect();
  L2HomeLinks homes;
  if (noc.replicate_far_reads() && noc.near_slice_serves_far_reads() && routes_.partitions() > 1) {
    homes = {slice_requests_.all(), noc.far_partition_latency_cycles() * clocks.l2.period_ps};
    fetches_from_homes_ = true;
  }
  for (std::uint32_t j = 0; j < slices; ++j) {
    slices_.push_back(std::make_unique<L2Slice>(
        j, config_.l2(), clocks.l2, map_, slice_requests_[j], dram_fills_[j], slice_responses_[j],
        dram_requests_.all(), *slice_bells[j], homes));
  }
  noc_ = std::make_unique<Interconnect>(
      config_.interconnect(), noc_clock, clocks.l2, sector_bytes, map_, routes_,
      Interconnect::Ports{sm_requests_.all(), sm_responses_.all(), slice_requests_.all(),
                          slice_responses_.all(), dram_fills_.all(), hub_requests_.all(),
                          hub_responses_.all()},
      noc_bell, &replicas_);
  for (std::uint32_t i = 0; i < sms; ++i) {
    l1s_.push_back(std::make_unique<L1Unit>(
        i, config_.l1(), config::l1_data_bytes(config_), config::l1_max_data_bytes(config_),
        config_.tma(), clocks.core, sm_requests_[i], sm_responses_[i], *l1_bells[i]));
  }
  hub_ = std::make_unique<HubTraffic>(clocks.core, config_.l2().line_bytes(), sector_bytes,
                                      static_cast<std::uint16_t>(sms), hub_requests_[0],
                                      hub_responses_[0], hub_bell);
}

std::vector<std::pair<ClockDomain, ClockedUnit*>> GpuMemorySystem::units() {
  std::vector<std::pair<ClockDomain, ClockedUnit*>> out;
  for (auto& c : channels_) out.emplace_back(ClockDomain::kDram, c.get());
  for (auto& s : slices_) out.emplace_back(ClockDomain::kL2, s.get());
  out.emplace_back(noc_core_clock() ? ClockDomain::kCore : ClockDomain::kL2, noc_.get());
  out.emplace_back(ClockDomain::kCore, hub_.get());
  for (auto& l1 : l1s_) out.emplace_back(ClockDomain::kCore, l1.get());
  return out;
}

std::vector<std::vector<ClockedUnit*>> GpuMemorySystem::slice_tiles() const {
  const auto slices = static_cast<std::uint32_t>(slices_.size());
  std::vector<std::uint32_t> group(slices);  // union-find over slices sharing a channel
  for (std::uint32_t j = 0; j < slices; ++j) group[j] = j;
  auto root = [&](std::uint32_t j) {
    while (group[j] != j) j = group[j] = group[group[j]];
    return j;
  };
  std::vector<std::uint32_t> first_sender(config_.dram().channels(), slices);
  for (std::uint32_t j = 0; j < slices; ++j) {
    for (std::uint32_t k : map_.channels_of_slice(j)) {
      if (first_sender[k] == slices) {
        first_sender[k] = j;
      } else {
        const std::uint32_t a = root(first_sender[k]), b = root(j);
        group[std::max(a, b)] = std::min(a, b);
      }
    }
  }
  std::vector<std::vector<ClockedUnit*>> tiles;
  std::vector<std::size_t> tile_of_root(slices, SIZE_MAX);
  for (std::uint32_t j = 0; j < slices; ++j) {
    std::size_t& t = tile_of_root[root(j)];
    if (t == SIZE_MAX) {
      t = tiles.size();
      tiles.emplace_back();
    }
    tiles[t].push_back(slices_[j].get());
  }
  return tiles;
}

void GpuMemorySystem::memcpy_to_device(std::uint64_t address, std::uint64_t bytes) {
  if (bytes == 0) return;
  const std::uint64_t line_bytes = config_.l2().line_bytes();
  const std::uint64_t sector_bytes = config_.l2().sector_bytes();
  const std::uint64_t end = address + bytes;
  // Only the last size_bytes can still be resident after the copy.
  const std::uint64_t begin = std::max(address, end - std::min(bytes, config_.l2().size_bytes()));
  for (std::uint64_t line = begin / line_bytes; line * line_bytes < end; ++line) {
    const std::uint64_t lo = std::max(begin, line * line_bytes) - line * line_bytes;
    const std::uint64_t hi = std::min(end, (line + 1) * line_bytes) - line * line_bytes;
    const auto first = static_cast<std::uint32_t>(lo / sector_bytes);
    const auto last = static_cast<std::uint32_t>((hi - 1) / sector_bytes);
    const std::uint32_t sectors = static_cast<std::uint32_t>(
        ((std::uint64_t{1} << (last + 1)) - 1) & ~((std::uint64_t{1} << first) - 1));
    slices_[map_.slice_of(line)]->install_clean(line, sectors);
  }
}

}  // namespace

std::unique_ptr<MemorySystem> make_memory_system(const config::GpuConfig& config) {
  return std::make_unique<GpuMemorySystem>(config);
}

}  // namespace sassim::memsys
