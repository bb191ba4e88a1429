#pragma once
// A CTA with every warp's instructions decoded into vectors and one address pool, for
// building CTAs by hand (tests, in-memory sources) and for looking at a whole CTA
// (encode / decode convert between it and the streamed CtaTrace).
#include <cstdint>
#include <memory>
#include <vector>

#include "isa/instruction.h"
#include "traces/kernel_trace.h"

namespace sassim::traces {

struct WarpTrace {
  std::uint32_t warp_in_cta = 0;
  std::vector<isa::WarpInst> insts;  // addr_begin / addr_count index DecodedCta::addresses
};

struct DecodedCta {
  Dim3 id;
  std::vector<WarpTrace> warps;          // indexed by warp id within the CTA
  std::vector<std::uint64_t> addresses;  // pool referenced by WarpInst::addr_begin
  std::uint64_t instruction_count() const {
    std::uint64_t n = 0;
    for (const auto& w : warps) n += w.insts.size();
    return n;
  }
};

// Encodes the CTA's warps into `store` (null: a store of its own with the defaults).
CtaTrace encode(const DecodedCta& cta, std::shared_ptr<TraceStore> store = nullptr);
// Reads every instruction of the CTA.
DecodedCta decode(CtaTrace cta);

}  // namespace sassim::traces
