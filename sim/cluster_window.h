#pragma once
// The cluster window of a kernel's shared address space (sm_90 clusters; docs/MODEL.md,
// "Thread block clusters"): the shared memory of the CTA of cluster rank r appears at
// shmem base + (1 + r) x the shared window. What the SM needs to know of an address
// there, for distributed shared memory accesses (sim/sm_dsmem.cc) and shared::cluster
// bulk copies (sim/sm_tma.cc).
#include <cstddef>
#include <cstdint>
#include <optional>

#include "sim/kernel_context.h"

namespace sassim::sim {

// The cluster rank whose shared memory a generic or shared address names, if it lies in
// the cluster window of a kernel launched with clusters of more than one CTA.
std::optional<std::uint32_t> cluster_shared_rank(const KernelContext& kernel,
                                                 std::uint64_t address);

// The CTA rank and the shared offset in it that an address in the cluster window names.
struct ClusterSharedAddress {
  std::uint32_t rank = 0;
  std::uint64_t offset = 0;
};
std::optional<ClusterSharedAddress> cluster_shared_address(const KernelContext& kernel,
                                                           std::uint64_t address);

// Where a shared::cluster bulk copy (UBLKCP.S.S / UBLKRED.S.S) writes: the destination
// CTA's rank and the shared offset of the mbarrier it completes on there.
struct ClusterCopyTarget {
  std::uint32_t rank = 0;
  std::uint64_t barrier = 0;
};
// From the copy's trace record (`words` values: the mbarrier address, then the
// transfers): the window the mbarrier address lies in names the CTA, or, for an
// mbarrier in the CTA's own window, the first transfer address does. None when neither
// lies in the cluster window (the copy is then taken as a global one).
std::optional<ClusterCopyTarget> cluster_copy_target(const KernelContext& kernel,
                                                     const std::uint64_t* record,
                                                     std::size_t words);

}  // namespace sassim::sim
