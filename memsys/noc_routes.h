#pragma once
// The interconnect's connectivity, built once as a graph (SMs and L2 slices as
// vertices, links as edges) and flattened into a hop-count table, so that routing in
// the timing loop is an array lookup, never a graph search.
#include <cstdint>
#include <vector>

namespace sassim::memsys {

class NocRoutes {
 public:
  // A crossbar: every SM linked directly to every slice. The slices are split into
  // `partitions` consecutive groups (slice j in partition j x partitions / slices)
  // and the SMs likewise (SM i near partition i x partitions / sms); a packet between
  // an SM and a slice of another partition crosses the link between them.
  static NocRoutes crossbar(std::uint32_t sms, std::uint32_t slices, std::uint32_t partitions = 1);

  std::uint32_t sms() const { return sms_; }
  std::uint32_t slices() const { return slices_; }
  std::uint32_t partitions() const { return partitions_; }
  // Links a packet crosses between sm and slice (either direction).
  std::uint32_t hops(std::uint32_t sm, std::uint32_t slice) const {
    return hops_[std::size_t{sm} * slices_ + slice];
  }
  std::uint32_t partition_of_slice(std::uint32_t slice) const {
    return static_cast<std::uint32_t>(std::uint64_t{slice} * partitions_ / slices_);
  }
  std::uint32_t partition_of_sm(std::uint32_t sm) const {
    return static_cast<std::uint32_t>(std::uint64_t{sm} * partitions_ / sms_);
  }
  // True when the slice is in a partition the SM is not near.
  bool far(std::uint32_t sm, std::uint32_t slice) const {
    return partition_of_sm(sm) != partition_of_slice(slice);
  }

 private:
  std::uint32_t sms_ = 0;
  std::uint32_t slices_ = 0;
  std::uint32_t partitions_ = 1;
  std::vector<std::uint32_t> hops_;  // sms_ x slices_
};

}  // namespace sassim::memsys
