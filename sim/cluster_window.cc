#include "sim/cluster_window.h"

#include "traces/kernel_trace.h"

namespace sassim::sim {

std::optional<std::uint32_t> cluster_shared_rank(const KernelContext& kernel,
                                                 std::uint64_t address) {
  const std::uint64_t size = kernel.info->cluster.count();
  const std::uint64_t window = kernel.shared_window_size;
  if (size <= 1 || window == 0 || address < kernel.info->shmem_base) return std::nullopt;
  const std::uint64_t slot = (address - kernel.info->shmem_base) / window;
  if (slot == 0 || slot > size) return std::nullopt;
  return static_cast<std::uint32_t>(slot - 1);
}

std::optional<ClusterSharedAddress> cluster_shared_address(const KernelContext& kernel,
                                                           std::uint64_t address) {
  const std::optional<std::uint32_t> rank = cluster_shared_rank(kernel, address);
  if (!rank) return std::nullopt;
  return ClusterSharedAddress{*rank, address - kernel.info->shmem_base -
                                         (std::uint64_t{*rank} + 1) * kernel.shared_window_size};
}

std::optional<ClusterCopyTarget> cluster_copy_target(const KernelContext& kernel,
                                                     const std::uint64_t* record,
                                                     std::size_t words) {
  const std::uint64_t mbarrier = record[0];
  if (mbarrier == traces::kNoTraceValue) return std::nullopt;
  if (const auto named = cluster_shared_address(kernel, mbarrier)) {
    return ClusterCopyTarget{named->rank, named->offset};
  }
  const std::uint64_t base = kernel.info->shmem_base;
  if (mbarrier < base || mbarrier - base >= kernel.shared_window_size ||
      words <= traces::kAsyncRecordWords) {
    return std::nullopt;
  }
  const std::optional<std::uint32_t> rank =
      cluster_shared_rank(kernel, record[traces::kAsyncRecordWords]);
  if (!rank) return std::nullopt;
  return ClusterCopyTarget{*rank, mbarrier - base};
}

}  // namespace sassim::sim
