// The L1's replacement priorities from load cache operators (isa::L1Policy).
#include "memsys/l1_unit.h"

namespace sassim::memsys {

void L1Unit::apply_hit_policy(SectorCache::Line& line, isa::L1Policy policy, std::uint32_t hit) {
  switch (policy) {
    case isa::L1Policy::kEvictFirst:
      cache_.demote(line);
      break;
    case isa::L1Policy::kLastUse:  // the sectors read are not needed again
      line.valid &= ~hit;
      cache_.demote(line);
      break;
    case isa::L1Policy::kEvictLast:
      cache_.touch(line);
      cache_.keep_last(line);
      break;
    case isa::L1Policy::kNormal:
    case isa::L1Policy::kNoAllocate:
      cache_.touch(line);
      break;
  }
}

void L1Unit::note_fill_policy(MshrTable<Waiter>::Entry& entry, bool cacheable,
                              isa::L1Policy policy) {
  if (!cacheable || policy == isa::L1Policy::kNoAllocate || policy == isa::L1Policy::kLastUse)
    return;
  entry.fill_allocates = true;
  if (policy != isa::L1Policy::kEvictFirst) entry.fill_evict_first = false;
  if (policy == isa::L1Policy::kEvictLast) entry.fill_evict_last = true;
}

}  // namespace sassim::memsys
