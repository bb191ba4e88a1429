// Hopper's asynchronous operations, executed at once: mbarriers (SYNCS), TMA tensor
// loads (UTMALDG.2D, which complete their bytes on an mbarrier as they execute) and
// ELECT. What the trace records for them (traces/emu/trace_writer.cc):
// - SYNCS: the barrier's shared offset, then the value the line's immediate carries
//   (the arrival count of an init, the bytes of an arrive.expect_tx, the parity of a wait);
// - UTMALDG: the mbarrier's offset, the box's bytes, its bytes out of bounds, then the
//   global address of every box row in bounds.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "traces/emu/exec.h"
#include "traces/emu/memory_access.h"
#include "traces/emu/tensor_map.h"

namespace sassim::emu {
namespace {

inline constexpr uint64_t kNoValue = ~uint64_t{0};

// A shared::cta or shared::cluster address of this CTA (rank 0, bits 24 and up) as an offset.
uint32_t shared_offset(const Inst& inst, ExecContext& ctx, uint64_t a) {
  if ((a >> 24) != 0) {
    ctx.fail(inst, fmt::format("shared address 0x{:x} is in another CTA of a cluster "
                               "(clusters are not supported)",
                               a));
  }
  return static_cast<uint32_t>(a);
}

Mbarrier& barrier_at(const Inst& inst, ExecContext& ctx, uint32_t offset) {
  auto it = ctx.cta.mbarriers.find(offset);
  if (it == ctx.cta.mbarriers.end()) {
    ctx.fail(inst, fmt::format("the mbarrier at shared offset 0x{:x} was not initialised "
                               "(SYNCS.EXCH.64)",
                               offset));
  }
  return it->second;
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
    const uint32_t offset = shared_offset(inst, ctx, address(w, inst.mem, l));
    uint8_t* word = mem.shared(offset, 8);
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
        Mbarrier& b = barrier_at(inst, ctx, offset);
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
      recorded_offset = offset;
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
  const uint32_t dst = shared_offset(inst, ctx, w.ur[r]);
  const uint32_t bar = shared_offset(inst, ctx, w.ur[r + 1U]);
  const auto col0 = static_cast<int64_t>(static_cast<int32_t>(w.ur[r + 2U]));
  const auto row0 = static_cast<int64_t>(static_cast<int32_t>(w.ur[r + 3U]));
  const uint32_t row_bytes = m.box_cols * m.element_bytes;
  const uint64_t box_bytes = uint64_t{row_bytes} * m.box_rows;
  MemoryAccess mem(ctx, inst);
  mem.shared(dst, 16);
  mem.shared(static_cast<uint32_t>(dst + box_bytes - 16), 16);
  // The record: barrier, bytes, bytes out of bounds (counted below), row addresses.
  w.addrs.insert(w.addrs.end(), {bar, box_bytes, 0});
  const size_t oob_at = w.addrs.size() - 1;
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
      const uint64_t logical = uint64_t{dst} + uint64_t{i} * row_bytes + c;
      std::memcpy(mem.shared(static_cast<uint32_t>(swizzle(logical, m.swizzle_bytes)), 16),
                  chunk.data(), 16);
    }
    // The row's first element in bounds starts its transfer.
    const int64_t first_col = std::max<int64_t>(col0, 0);
    if (row_in && first_col < static_cast<int64_t>(m.cols) && col0 + m.box_cols > 0)
      w.addrs.push_back(m.address + static_cast<uint64_t>(row) * m.pitch +
                        static_cast<uint64_t>(first_col) * m.element_bytes);
  }
  Mbarrier& b = barrier_at(inst, ctx, bar);
  b.tx -= static_cast<int64_t>(box_bytes);
  try_complete(b);
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
  const auto it = ctx.cta.mbarriers.find(static_cast<uint32_t>(a));
  if ((a >> 24) != 0 || it == ctx.cta.mbarriers.end()) return false;  // exec_async reports it
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
