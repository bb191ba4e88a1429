// The address modes give sensible addresses on real traces: global accesses of Rodinia
// BFS fall inside the buffers its kernelslist copies to the GPU, shared-memory accesses
// of FlashInfer prefill stay inside its 32 KiB of shared memory, and every address is
// aligned to its access size.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "traces/accelsim_reader.h"
#include "traces/decoded_cta.h"

namespace sassim::traces {
namespace {

const std::filesystem::path kRef = std::filesystem::path(SASSIM_SOURCE_DIR) / "traces/reference";

struct Range {
  std::uint64_t begin, end;
};

// Calls f(static instruction, address) for every address of every kernel of a workload.
template <typename F>
void for_each_address(const std::filesystem::path& folder, std::vector<Range>* copies, F f) {
  auto w = open_accelsim_workload(kRef / folder);
  while (auto command = w->next()) {
    if (auto* copy = std::get_if<MemcpyHtoD>(&*command)) {
      if (copies) copies->push_back({copy->address, copy->address + copy->bytes});
      continue;
    }
    KernelTrace& k = *std::get<KernelLaunch>(*command).kernel;
    while (auto next = k.next_cta()) {
      const std::optional<DecodedCta> cta = decode(std::move(*next));
      for (const auto& warp : cta->warps) {
        for (const auto& inst : warp.insts) {
          for (std::uint32_t i = 0; i < inst.addr_count; ++i) {
            f(k.statics()[inst.static_index], cta->addresses[inst.addr_begin + i]);
          }
        }
      }
    }
  }
}

TEST(ReferenceAddresses, BfsGlobalAccessesHitTheCopiedBuffers) {
  std::vector<Range> copies;
  std::uint64_t checked = 0, outside = 0, misaligned = 0;
  for_each_address("v100-rodinia-bfs/util/tracer_nvbit/traces/bfs-rodinia-3.1", &copies,
                   [&](const isa::StaticInst& s, std::uint64_t a) {
                     ASSERT_EQ(s.op.space, isa::MemSpace::kGlobal);
                     ++checked;
                     bool inside = false;
                     for (const Range& r : copies)
                       inside |= a >= r.begin && a + s.op.access_bytes <= r.end;
                     outside += inside ? 0u : 1u;
                     misaligned += a % s.op.access_bytes == 0 ? 0u : 1u;
                   });
  EXPECT_EQ(checked, 181816u);  // one address per active thread
  EXPECT_EQ(outside, 0u);
  EXPECT_EQ(misaligned, 0u);
}

TEST(ReferenceAddresses, CoalescedLoadsAreConsecutive) {
  // Turing vecAdd of doubles: each warp's LDG.E.64 reads 32 consecutive 8-byte elements.
  auto k = open_accelsim_kernel(
      kRef / "rtx-turing-vecadd-v1.2/util/tracer_nvbit/traces/GPU_0/kernel-1.traceg");
  auto next = k->next_cta();
  ASSERT_TRUE(next.has_value());
  const std::optional<DecodedCta> cta = decode(std::move(*next));
  const auto& ldg = cta->warps[0].insts[9];
  ASSERT_EQ(k->statics()[ldg.static_index].op.access_bytes, 8);
  ASSERT_EQ(ldg.addr_count, 32u);
  for (std::uint32_t i = 1; i < 32; ++i) {
    EXPECT_EQ(cta->addresses[ldg.addr_begin + i], cta->addresses[ldg.addr_begin + i - 1] + 8);
  }
}

TEST(ReferenceAddresses, PrefillSharedAccessesStayInsideSharedMemory) {
  std::uint64_t shared = 0, outside = 0, misaligned = 0;
  for_each_address("a100-flashinfer/test-traces/flashinfer-prefill/traces", nullptr,
                   [&](const isa::StaticInst& s, std::uint64_t a) {
                     if (a % s.op.access_bytes != 0) ++misaligned;
                     if (s.op.space != isa::MemSpace::kShared) return;
                     ++shared;
                     if (a + s.op.access_bytes > 32768) ++outside;
                   });
  EXPECT_EQ(shared, 49152u);
  EXPECT_EQ(outside, 0u);
  EXPECT_EQ(misaligned, 0u);
}

TEST(ReferenceAddresses, AsyncCopiesAreAlignedToTheirSize) {
  std::uint64_t copies = 0, misaligned = 0;
  for_each_address("a100-flashinfer/test-traces/flashinfer-singledecode/traces", nullptr,
                   [&](const isa::StaticInst& s, std::uint64_t a) {
                     if (s.op.mem != isa::MemKind::kAsyncCopy) return;
                     ++copies;
                     if (a % 16 != 0) ++misaligned;
                   });
  EXPECT_GT(copies, 100000u);
  EXPECT_EQ(misaligned, 0u);
}

}  // namespace
}  // namespace sassim::traces
