#include "traces/decoded_cta.h"

#include <span>

namespace sassim::traces {

CtaTrace encode(const DecodedCta& cta, std::shared_ptr<TraceStore> store) {
  if (store == nullptr) store = std::make_shared<TraceStore>();
  CtaTrace out;
  out.id = cta.id;
  for (const WarpTrace& w : cta.warps) {
    WarpStreamWriter writer(store, w.warp_in_cta);
    for (const isa::WarpInst& wi : w.insts) {
      writer.add(
          wi.static_index, wi.active_mask,
          std::span<const std::uint64_t>(cta.addresses).subspan(wi.addr_begin, wi.addr_count));
    }
    out.warps.push_back(writer.finish());
  }
  return out;
}

DecodedCta decode(CtaTrace cta) {
  DecodedCta out;
  out.id = cta.id;
  for (WarpStream& stream : cta.warps) {
    WarpTrace& w = out.warps.emplace_back();
    w.warp_in_cta = stream.warp_in_cta();
    WarpWindow window(std::move(stream));
    for (std::uint32_t i = 0; i < window.size(); ++i) {
      isa::WarpInst wi = window.inst(i);
      const std::span<const std::uint64_t> a = window.addresses(wi);
      wi.addr_begin = static_cast<std::uint32_t>(out.addresses.size());
      out.addresses.insert(out.addresses.end(), a.begin(), a.end());
      w.insts.push_back(wi);
      window.forget_before(i);
    }
  }
  return out;
}

}  // namespace sassim::traces
