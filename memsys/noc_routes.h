#pragma once
// The interconnect's connectivity, built once as a graph (SMs and L2 slices as
// vertices, links as edges) and flattened into a hop-count table, so that routing in
// the timing loop is an array lookup, never a graph search.
#include <cstdint>
#include <vector>

namespace sassim::memsys {

class NocRoutes {
 public:
  // A crossbar: every SM linked directly to every slice.
  static NocRoutes crossbar(std::uint32_t sms, std::uint32_t slices);

  std::uint32_t sms() const { return sms_; }
  std::uint32_t slices() const { return slices_; }
  // Links a packet crosses between sm and slice (either direction).
  std::uint32_t hops(std::uint32_t sm, std::uint32_t slice) const {
    return hops_[std::size_t{sm} * slices_ + slice];
  }

 private:
  std::uint32_t sms_ = 0;
  std::uint32_t slices_ = 0;
  std::vector<std::uint32_t> hops_;  // sms_ x slices_
};

}  // namespace sassim::memsys
