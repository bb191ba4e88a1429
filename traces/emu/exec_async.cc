// Hopper's asynchronous operations, executed at once: mbarriers (SYNCS), TMA tensor
// loads (UTMALDG.2D, which complete their bytes on an mbarrier as they execute; with
// .MULTICAST into the same offsets of every CTA of the cluster its mask names) and ELECT.
// A shared address names a CTA of the cluster by the rank in its bits 24 and up; an
// arrive (SYNCS.ARRIVE.TRANS64.RED) may reach another CTA's mbarrier. What the trace
// records for them (traces/emu/trace_writer.cc):
// - SYNCS: the barrier's shared offset (another CTA's: its address in the cluster window,
//   kTraceSharedBase + (1 + rank) << 24 + offset), then the value the line's immediate
//   carries (the arrival count of an init, the bytes of an arrive.expect_tx, the parity
//   of a wait);
// - UTMALDG: the mbarrier's offset, the box's bytes, its bytes out of bounds, the
//   multicast CTA mask (0: none), then the global address of every box row in bounds.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "traces/emu/exec.h"
#include "traces/emu/memory_access.h"
#include "traces/emu/tensor_map.h"
#include "traces/emu/trace_writer.h"

namespace sassim::emu {
namespace {

inline constexpr uint64_t kNoValue = ~uint64_t{0};

// A shared::cta or shared::cluster address: the CTA of the cluster it names and the
// offset in that CTA's shared memory.
struct SharedRef {
  Cta* cta = nullptr;
  uint32_t offset = 0;
  bool remote = false;  // another CTA than the executing one
};

SharedRef shared_ref(const Inst& inst, ExecContext& ctx, uint64_t a) {
  const uint64_t rank = a >> kSharedRankShift;
  if (rank >= ctx.cluster_size()) {
    ctx.fail(inst, fmt::format("shared address 0x{:x} names CTA rank {} of a cluster of {}", a,
                               rank, ctx.cluster_size()));
  }
  Cta& cta = ctx.cta_of_rank(static_cast<uint32_t>(rank));
  return {&cta, static_cast<uint32_t>(a & ((uint64_t{1} << kSharedRankShift) - 1)),
          &cta != &ctx.cta};
}

Mbarrier& barrier_at(const Inst& inst, ExecContext& ctx, Cta& cta, uint32_t offset) {
  auto it = cta.mbarriers.find(offset);
  if (it == cta.mbarriers.end()) {
    ctx.fail(inst, fmt::format("the mbarrier at shared offset 0x{:x}{} was not initialised "
                               "(SYNCS.EXCH.64)",
                               offset,
                               &cta == &ctx.cta ? std::string()
                                                : fmt::format(" of cluster rank {}", cta.rank)));
  }
  return it->second;
}
Mbarrier& barrier_at(const Inst& inst, ExecContext& ctx, uint32_t offset) {
  return barrier_at(inst, ctx, ctx.cta, offset);
}

void try_complete(Mbarrier& b) {
  if (b.pending == 0 && b.tx == 0) {
    ++b.phase;
    b.pending = b.expected;
  }
}

// The try-wait's parity: bit 31 of its data register (nvcc writes `parity << 31`).
unsigned wait_parity(const Warp& w, const Inst& inst, unsigned lane) {
  return raw(w, inst.src[0], lane) >> 31;
}

void syncs(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx) {
  MemoryAccess mem(ctx, inst);
  const auto op = static_cast<SyncsOp>(inst.sub);
  // The record: the first lane's barrier and value.
  const unsigned first = static_cast<unsigned>(std::countr_zero(mask));
  uint64_t recorded_offset = 0, recorded = kNoValue;
  for_lanes(mask, [&](unsigned l) {
    const SharedRef ref = shared_ref(inst, ctx, address(w, inst.mem, l));
    if (ref.remote && op != SyncsOp::kArrive) {
      ctx.fail(inst, fmt::format("mbarrier at offset 0x{:x} of cluster rank {}: only a plain "
                                 "arrive reaches another CTA's mbarrier",
                                 ref.offset, ref.cta->rank));
    }
    const uint32_t offset = ref.offset;
    uint8_t* word = mem.shared_in(*ref.cta, offset, 8);
    uint64_t value = kNoValue;
    switch (op) {
      case SyncsOp::kInit: {
        // nvcc's mbarrier.init stores (2^20 - count) << 1 in the low word.
        const uint64_t bits = raw64(w, inst.src[0], l);
        const uint32_t count = 0x100000U - ((static_cast<uint32_t>(bits) >> 1) & 0xfffffU);
        if ((bits & 1U) != 0 || count == 0 || count >= 0x100000U) {
          ctx.fail(inst, fmt::format("value 0x{:x} is not an mbarrier initialisation "
                                     "(expected (2^20 - count) << 1 in the low word)",
                                     bits));
        }
        std::memcpy(word, &bits, 8);
        ctx.cta.mbarriers[offset] = Mbarrier{count, count, 0, 0};
        value = count;
        break;
      }
      case SyncsOp::kArrive:
      case SyncsOp::kArriveTx: {
        Mbarrier& b = barrier_at(inst, ctx, *ref.cta, offset);
        if (b.pending == 0) {
          ctx.fail(inst,
                   "more arrivals than the mbarrier expects: its phase waits only for "
                   "transaction bytes");
        }
        if (op == SyncsOp::kArriveTx) {
          value = raw(w, inst.src[0], l);
          b.tx += static_cast<int64_t>(value);
        }
        --b.pending;
        try_complete(b);
        break;
      }
      case SyncsOp::kTryWait: {
        const Mbarrier& b = barrier_at(inst, ctx, offset);
        value = wait_parity(w, inst, l);
        write_pred(inst, w, inst.pdst[0], l, (b.phase & 1U) != value);
        break;
      }
    }
    if (l == first) {
      recorded_offset =
          ref.remote
              ? kTraceSharedBase + ((uint64_t{ref.cta->rank} + 1) << kSharedRankShift) + offset
              : offset;
      recorded = value;
    }
  });
  if (mask == 0) return;
  w.addrs.push_back(recorded_offset);
  w.addrs.push_back(recorded);
}

TensorMap tensor_map(const Inst& inst, const Warp& w, ExecContext& ctx) {
  const uint16_t r = inst.mem2.ureg;
  const uint64_t at = w.ur[r] | (uint64_t{w.ur[r + 1U]} << 32);
  const auto& bytes = ctx.bank.bytes;
  std::optional<TensorMap> m;
  if (at >= kParamWindowBase && at - kParamWindowBase + kTensorMapBytes <= bytes.size()) {
    m = decode_tensor_map(std::span<const uint8_t>(bytes).subspan(at - kParamWindowBase));
  }
  if (!m) {
    ctx.fail(inst, fmt::format("0x{:x} is not a tensor map parameter of the launch (expected "
                               "the address of a CUtensorMap kernel argument)",
                               at));
  }
  const uint32_t e = m->element_bytes, sw = m->swizzle_bytes;
  if ((e != 1 && e != 2 && e != 4 && e != 8) || (sw != 0 && sw != 32 && sw != 64 && sw != 128) ||
      m->box_rows == 0 || m->box_cols == 0 || m->pitch < m->cols * e) {
    ctx.fail(inst, fmt::format("tensor map of {}-byte elements, a {} x {} box, {}-byte swizzle "
                               "and {}-byte row pitch for {} columns: expected elements of 1, "
                               "2, 4 or 8 bytes, a box of at least 1 x 1, a swizzle of 0, 32, "
                               "64 or 128 bytes and a pitch covering a row",
                               e, m->box_rows, m->box_cols, sw, m->pitch, m->cols));
  }
  const uint64_t row_bytes = uint64_t{m->box_cols} * m->element_bytes;
  if (row_bytes % 16 != 0 || (m->swizzle_bytes != 0 && row_bytes > m->swizzle_bytes)) {
    ctx.fail(inst, fmt::format("tensor map box rows of {} bytes: expected a multiple of 16 "
                               "bytes, at most the {}-byte swizzle span",
                               row_bytes, m->swizzle_bytes));
  }
  return *m;
}

void utmaldg(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx) {
  if (mask == 0) return;
  if (inst.mem.reg != kRowZero || inst.mem.offset != 0 || inst.mem2.reg != kRowZero ||
      inst.mem2.offset != 0 || inst.mem.ureg + 4U >= kURowZero) {
    ctx.fail(inst, "expected UTMALDG.2D [URd], [URm] (uniform registers, no offsets)");
  }
  const TensorMap m = tensor_map(inst, w, ctx);
  const uint16_t r = inst.mem.ureg;
  const SharedRef dst = shared_ref(inst, ctx, w.ur[r]);
  const SharedRef bar = shared_ref(inst, ctx, w.ur[r + 1U]);
  if (dst.cta != bar.cta) {
    ctx.fail(inst, fmt::format("the box goes to cluster rank {} and its mbarrier is in rank {}: "
                               "expected both in one CTA",
                               dst.cta->rank, bar.cta->rank));
  }
  // .MULTICAST: the CTAs of the cluster named by bits 16-31 of the mask operand, each at
  // the same offsets.
  uint32_t ranks = 1U << dst.cta->rank;
  if (inst.sub != 0) {
    ranks = raw(w, inst.src[0], static_cast<unsigned>(std::countr_zero(mask))) >> 16;
    if (ranks == 0 || (ranks >> ctx.cluster_size()) != 0) {
      ctx.fail(inst, fmt::format("multicast CTA mask 0x{:x}: expected ranks of the cluster of {}",
                                 ranks, ctx.cluster_size()));
    }
  }
  const auto col0 = static_cast<int64_t>(static_cast<int32_t>(w.ur[r + 2U]));
  const auto row0 = static_cast<int64_t>(static_cast<int32_t>(w.ur[r + 3U]));
  const uint32_t row_bytes = m.box_cols * m.element_bytes;
  const uint64_t box_bytes = uint64_t{row_bytes} * m.box_rows;
  MemoryAccess mem(ctx, inst);
  for (uint32_t left = ranks; left != 0; left &= left - 1) {
    Cta& to = ctx.cta_of_rank(static_cast<uint32_t>(std::countr_zero(left)));
    mem.shared_in(to, dst.offset, 16);
    mem.shared_in(to, static_cast<uint32_t>(dst.offset + box_bytes - 16), 16);
  }
  // The record: barrier, bytes, bytes out of bounds (counted below), multicast mask, row
  // addresses.
  w.addrs.insert(w.addrs.end(), {bar.offset, box_bytes, 0, inst.sub != 0 ? ranks : 0});
  const size_t oob_at = w.addrs.size() - 2;
  uint64_t oob = 0;
  std::array<uint8_t, 16> chunk{};
  for (uint32_t i = 0; i < m.box_rows; ++i) {
    const int64_t row = row0 + i;
    const bool row_in = row >= 0 && static_cast<uint64_t>(row) < m.rows;
    for (uint32_t c = 0; c < row_bytes; c += 16) {
      for (uint32_t e = 0; e < 16; e += m.element_bytes) {
        const int64_t col = col0 + (c + e) / m.element_bytes;
        const bool in = row_in && col >= 0 && static_cast<uint64_t>(col) < m.cols;
        if (in) {
          const uint64_t a = m.address + static_cast<uint64_t>(row) * m.pitch +
                             static_cast<uint64_t>(col) * m.element_bytes;
          std::memcpy(chunk.data() + e, mem.global(a, m.element_bytes), m.element_bytes);
        } else {
          std::memset(chunk.data() + e, 0, m.element_bytes);
          oob += m.element_bytes;
        }
      }
      const uint64_t logical = uint64_t{dst.offset} + uint64_t{i} * row_bytes + c;
      const auto at = static_cast<uint32_t>(swizzle(logical, m.swizzle_bytes));
      for (uint32_t left = ranks; left != 0; left &= left - 1) {
        Cta& to = ctx.cta_of_rank(static_cast<uint32_t>(std::countr_zero(left)));
        std::memcpy(mem.shared_in(to, at, 16), chunk.data(), 16);
      }
    }
    // The row's first element in bounds starts its transfer.
    const int64_t first_col = std::max<int64_t>(col0, 0);
    if (row_in && first_col < static_cast<int64_t>(m.cols) && col0 + m.box_cols > 0)
      w.addrs.push_back(m.address + static_cast<uint64_t>(row) * m.pitch +
                        static_cast<uint64_t>(first_col) * m.element_bytes);
  }
  for (uint32_t left = ranks; left != 0; left &= left - 1) {
    Cta& to = ctx.cta_of_rank(static_cast<uint32_t>(std::countr_zero(left)));
    Mbarrier& b = barrier_at(inst, ctx, to, bar.offset);
    b.tx -= static_cast<int64_t>(box_bytes);
    try_complete(b);
  }
  w.addrs[oob_at] = oob;
}

void elect(const Inst& inst, Warp& w, uint32_t mask) {
  const uint32_t candidates = pred_mask(w, inst.psrc[0], mask);
  const unsigned leader =
      candidates != 0 ? static_cast<unsigned>(std::countr_zero(candidates)) : 32;
  for_lanes(mask, [&](unsigned l) { write_pred(inst, w, inst.pdst[0], l, l == leader); });
  if (mask != 0) w.ur[inst.dst[0]] = leader;
}

}  // namespace

bool waits_on_mbarrier(const Inst& inst, const Warp& w, uint32_t mask, ExecContext& ctx) {
  if (inst.op != Op::kSyncs || static_cast<SyncsOp>(inst.sub) != SyncsOp::kTryWait || mask == 0)
    return false;
  const auto lane = static_cast<unsigned>(std::countr_zero(mask));
  const uint64_t a = address(w, inst.mem, lane);
  const uint64_t offset = a & ((uint64_t{1} << kSharedRankShift) - 1);
  const auto it = ctx.cta.mbarriers.find(static_cast<uint32_t>(offset));
  // Another CTA's or an unknown barrier: exec_async reports it.
  if ((a >> kSharedRankShift) != ctx.cta.rank || it == ctx.cta.mbarriers.end()) return false;
  return (it->second.phase & 1U) == wait_parity(w, inst, lane);
}

void exec_async(const Inst& inst, Warp& w, uint32_t mask, ExecContext& ctx) {
  switch (inst.op) {
    case Op::kSyncs:
      syncs(inst, w, mask, ctx);
      return;
    case Op::kUtmaldg:
      utmaldg(inst, w, mask, ctx);
      return;
    default:
      elect(inst, w, mask);
  }
}

}  // namespace sassim::emu
