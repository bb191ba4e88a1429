#include "traces/emu/suite/ubench_check.h"

#include <fmt/format.h>

#include <cstring>
#include <functional>
#include <vector>

#include "ground/error.h"
#include "kernels/ubench/ubench.h"

namespace sassim::emu {
namespace {

namespace ub = kernels::ubench;

template <typename T>
T load(const std::vector<uint8_t>& bytes, uint64_t index) {
  T v{};
  if ((index + 1) * sizeof(T) <= bytes.size())
    std::memcpy(&v, bytes.data() + index * sizeof(T), sizeof(T));
  return v;
}

size_t arg_named(const kernels::Launch& l, std::string_view name) {
  const auto args = l.arguments();
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].name == name) return i;
  }
  throw Error(fmt::format("{} has no argument {}", l.kernel, name));
}

// What one thread of a timed kernel leaves in its sink, as bits (0 bytes: no sink).
struct Expected {
  uint32_t sink_bytes = 0;
  std::function<bool(uint64_t)> records;   // thread -> writes clocks and sink
  std::function<uint64_t(uint64_t)> sink;  // thread -> the sink's bits
};

template <typename T>
uint64_t bits(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

// The float sums of the L1 / L2 bandwidth kernels, in the kernels' order of additions.
template <typename T>
Expected sums(const kernels::Launch& l, const std::vector<uint8_t>& a) {
  const std::string_view k = l.kernel;
  const auto threads = l.threads();
  Expected e;
  e.sink_bytes = sizeof(T);
  e.records = [](uint64_t) { return true; };
  // l2_bw_32f / l2_bw_64f take their repeats as a launch value, the _sm variants 2048.
  const uint64_t l2_repeats = k.starts_with("ubench_l2_bw") && !ub::is_l2_bw_sm(k)
                                  ? l.arguments()[arg_named(l, "repeats")].value_bits
                                  : ub::kL2BwRepeats;
  e.sink = [k, threads, l2_repeats, &a](uint64_t t) -> uint64_t {
    auto at = [&](uint64_t i) { return load<T>(a, i); };
    if (k == "ubench_l1_bw_32f" || k == "ubench_l1_bw_32f_c" || k.starts_with("ubench_l1_bw_64f")) {
      const bool f64 = k.starts_with("ubench_l1_bw_64f");
      const uint64_t n = f64 ? ub::kL1BwDoubles : ub::kL1BwFloats;
      T s[4] = {0, 0, 0, 0};
      for (uint64_t i = t; i < n; i += threads) s[0] += at(i);
      const uint32_t repeats = f64 ? ub::kL1Bw64Repeats : ub::kL1BwRepeats;
      const uint32_t loads = f64 ? 2 : 4;
      for (uint64_t j = 0; j < repeats; ++j) {
        const uint64_t p = (t + j * 32 * loads) % n;
        for (uint32_t q = 0; q < loads; ++q) s[q] += at(p + 32 * q);
      }
      return bits(f64 ? s[0] + s[1] : ((s[0] + s[1]) + s[2]) + s[3]);
    }
    if (k == "ubench_l1_bw_128") {
      T s[4] = {0, 0, 0, 0};
      for (uint64_t i = t * 4; i < ub::kL1BwFloats; i += threads * 4) {
        for (uint32_t q = 0; q < 4; ++q) s[q] += at(i + q);
      }
      for (uint64_t j = 0; j < ub::kL1BwRepeats; ++j) {
        const uint64_t p = (t * 4 + j * 128) % ub::kL1BwFloats;
        for (uint32_t q = 0; q < 4; ++q) s[q] += at(p + q);
      }
      return bits(((s[0] + s[1]) + s[2]) + s[3]);
    }
    if (k == "ubench_l1_bw_32f_unroll" || k.starts_with("ubench_l1_bw_32f_unroll_large")) {
      const bool large = k.starts_with("ubench_l1_bw_32f_unroll_large");
      T s = 0;
      for (uint64_t i = t; i < (large ? ub::kL1BwLargeWarmFloats : ub::kL1BwFloats); i += threads)
        s += at(i);
      for (uint64_t j = 0; j < ub::kL1BwRepeats; ++j)
        s += at(large ? t + j * 32 : (t + j * 32) % ub::kL1BwFloats);
      return bits(s);
    }
    // l2_bw_32f / l2_bw_64f and their _sm variants
    T s = 0;
    for (uint64_t i = t; i < threads + l2_repeats * 32; i += threads) s += at(i);
    for (uint64_t j = 0; j < l2_repeats; ++j) s += at(j * 32 + t);
    return bits(s);
  };
  return e;
}

Expected expected(const kernels::Launch& l, DeviceBuffers& b) {
  const std::string_view k = l.kernel;
  Expected e;
  e.records = [](uint64_t) { return true; };
  auto base = [&](std::string_view name) {
    return b.memory.address(static_cast<size_t>(b.allocation_of_arg[arg_named(l, name)]));
  };
  if (k == "ubench_l1_lat" || k == "ubench_l1_lat_cta") {
    // Thread 0 links entry i to i + 1; thread t loads entry t, then chases 256 steps.
    const uint64_t ring = base("ring");
    const uint32_t entries = k == "ubench_l1_lat" ? ub::kL1LatEntries : ub::kL1LatCtaEntries;
    e.sink_bytes = 8;
    e.sink = [ring, entries](uint64_t t) {
      return ring + 8 * ((t + 1 + ub::kL1LatSteps) % entries);
    };
  } else if (k == "ubench_l2_lat") {
    const uint64_t ring = base("ring");
    e.sink_bytes = 8;
    e.records = [](uint64_t t) { return t == 0; };
    e.sink = [ring](uint64_t) { return ring + 8 * ((1 + ub::kL2LatSteps) % ub::kL2LatEntries); };
  } else if (k == "ubench_mem_lat" || k == "ubench_mem_lat_cta") {
    // Entry i links to i + 4, the last four back to 0-3 (_cta; the record's program
    // links them to bytes the chase never reaches); the chasers are threads 0-3 of the
    // last CTA, chasing from their own entry.
    const uint64_t ring = base("ring");
    const uint32_t entries = l.arguments()[arg_named(l, "entries")].value_bits;
    const uint64_t first = (l.grid.count() - 1) * l.block.count();
    e.sink_bytes = 8;
    e.records = [first](uint64_t t) { return t >= first && t < first + ub::kMemLatChasers; };
    e.sink = [ring, entries, first](uint64_t t) {
      const auto tid = static_cast<uint32_t>(t - first);
      auto next = [&](uint64_t i) {
        return i < entries - ub::kMemLatChasers ? i + 4 : i - (entries - 4);
      };
      uint64_t p = next(tid);
      for (uint32_t i = tid; i < ub::kMemLatLoads - ub::kMemLatChasers; i += ub::kMemLatChasers)
        p = next(p);
      return ring + 8 * p;
    };
  } else if (k == "ubench_shared_lat") {
    e.sink_bytes = 8;
    e.sink = [](uint64_t t) { return (t + ub::kSharedLatSteps) % ub::kSharedLatEntries; };
  } else if (k == "ubench_shared_bw") {
    const uint64_t threads = l.threads();
    e.sink_bytes = 4;
    e.sink = [threads](uint64_t t) {
      return (t + threads * ub::kSharedBwSteps) % ub::kSharedBwWords;
    };
  } else if (k == "ubench_l1_shared_bw" || k == "ubench_l1_shared_bw_ring") {
    // Global entry i holds i + 1025 mod 16384 where the host copied it (the first 1024
    // entries in the record's program, all of them in _ring), 0 elsewhere.
    const uint64_t threads = l.threads();
    const uint64_t copied =
        k == "ubench_l1_shared_bw" ? ub::kL1SharedCopiedWords : ub::kL1SharedRingWords;
    e.sink_bytes = 4;
    e.sink = [threads, copied](uint64_t t) {
      uint64_t ps = t, pl = t;
      auto next_l1 = [copied](uint64_t i) {
        return i < copied ? (i + ub::kL1SharedRingStride + 1) % ub::kL1SharedRingWords : 0;
      };
      for (uint32_t i = 0; i < ub::kL1SharedRingWords; ++i) pl = next_l1(pl);
      for (uint32_t i = 0; i < ub::kL1SharedSteps; ++i) {
        ps = (ps + threads + 7) % ub::kL1SharedWords;
        pl = next_l1(pl);
      }
      return (ps + pl) & 0xffffffffU;
    };
  } else if (k == "ubench_max_iops_int32") {
    const uint32_t a = l.arguments()[arg_named(l, "a")].value_bits;
    const uint32_t c = l.arguments()[arg_named(l, "b")].value_bits;
    e.sink_bytes = 4;
    e.sink = [a, c](uint64_t t) {
      auto x = static_cast<uint32_t>(t);
      for (uint32_t i = 0; i < 4 * ub::kIopsSteps; ++i) x = x * a + c;
      return uint64_t{x};
    };
  } else if (k.starts_with("ubench_l1_bw_64f") || k.starts_with("ubench_l2_bw_64f")) {
    return sums<double>(l, b.arg(arg_named(l, "array")));
  } else if (k != "ubench_mem_bw") {
    return sums<float>(l, b.arg(arg_named(l, "array")));
  }
  return e;
}

SuiteCheck check_mem_bw(const kernels::Launch& l, DeviceBuffers& b) {
  const std::vector<uint8_t>* in[5] = {&b.arg(arg_named(l, "a")), &b.arg(arg_named(l, "b")),
                                       &b.arg(arg_named(l, "d")), &b.arg(arg_named(l, "e")),
                                       &b.arg(arg_named(l, "f"))};
  const std::vector<uint8_t>& c = b.arg(arg_named(l, "c"));
  const uint64_t n = c.size() / 4;
  for (uint64_t i = 0; i < n; ++i) {
    float want = load<float>(*in[0], i);
    for (size_t q = 1; q < 5; ++q) want += load<float>(*in[q], i);
    if (load<uint32_t>(c, i) != bits(want)) {
      return {false,
              fmt::format("ubench_mem_bw: c[{}] is {}, expected {}", i, load<float>(c, i), want)};
    }
  }
  return {true, fmt::format("ubench_mem_bw: {} values of c match", n)};
}

}  // namespace

SuiteCheck check_ubench_outputs(const kernels::Launch& l, DeviceBuffers& b) {
  const std::string_view k = l.kernel;
  if (ub::is_transpose(k)) {
    const std::vector<uint8_t>& out = b.arg(0);
    const std::vector<uint8_t>& in = b.arg(1);
    std::vector<float> src(in.size() / 4), want(out.size() / 4);
    std::memcpy(src.data(), in.data(), in.size());
    ub::transpose_reference(src, want);
    for (size_t i = 0; i < want.size(); ++i) {
      if (load<float>(out, i) != want[i])
        return {false,
                fmt::format("{}: out[{}] is {}, expected {}", k, i, load<float>(out, i), want[i])};
    }
    return {true, fmt::format("{}: {} values match the CPU transpose", k, want.size())};
  }
  const std::vector<uint8_t>& clocks = b.arg(arg_named(l, "clocks"));
  const Expected e = expected(l, b);
  const std::vector<uint8_t>* sink = e.sink_bytes != 0 ? &b.arg(arg_named(l, "sink")) : nullptr;
  uint64_t timed = 0;
  for (uint64_t t = 0; t < l.threads(); ++t) {
    const auto start = load<uint64_t>(clocks, 2 * t), stop = load<uint64_t>(clocks, 2 * t + 1);
    if (!e.records(t)) {
      if (start != 0 || stop != 0)
        return {false, fmt::format("{}: thread {} wrote clocks ({}, {}); expected none", k, t,
                                   start, stop)};
      continue;
    }
    ++timed;
    if (stop <= start)
      return {false, fmt::format("{}: thread {} has clocks start {} stop {}; expected stop > start",
                                 k, t, start, stop)};
    if (sink == nullptr) continue;
    const uint64_t want = e.sink(t);
    const uint64_t got = e.sink_bytes == 8 ? load<uint64_t>(*sink, t) : load<uint32_t>(*sink, t);
    if (got != want)
      return {false, fmt::format("{}: thread {} sink is 0x{:x}, expected 0x{:x}", k, t, got, want)};
  }
  if (k == "ubench_mem_bw") {
    SuiteCheck c = check_mem_bw(l, b);
    if (!c.ok) return c;
  }
  return {true, fmt::format("{}: {} threads' clocks ordered{}", k, timed,
                            sink != nullptr ? " and sinks match the CPU" : ", c matches the CPU")};
}

}  // namespace sassim::emu
