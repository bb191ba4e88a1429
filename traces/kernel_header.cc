#include "traces/kernel_header.h"

#include <fmt/format.h>

#include <array>
#include <optional>
#include <string>

#include "traces/tokens.h"
#include "traces/trace_error.h"

namespace sassim::traces {
namespace {

enum Field : std::size_t {
  kName,
  kId,
  kGrid,
  kBlock,
  kShmem,
  kNregs,
  kBinaryVersion,
  kStream,
  kShmemBase,
  kLocalBase,
  kNvbit,
  kTracer,
  kLineinfo,
  kCluster,
  kNumFields
};

struct FieldSpec {
  std::string_view key;
  bool required;
  std::string_view expected;
};

constexpr std::array<FieldSpec, kNumFields> kFields = {{
    {"kernel name", true, "a kernel name"},
    {"kernel id", true, "a decimal kernel id (0..4294967295)"},
    {"grid dim", true, "(x,y,z) with x in 1..2147483647 and y, z in 1..65535 CTAs"},
    {"block dim", true, "(x,y,z) with x, y in 1..1024, z in 1..64 and 1..1024 threads in total"},
    {"shmem", true, "0..262144 bytes of shared memory per CTA"},
    {"nregs", true, "1..255 registers per thread"},
    {"binary version", true, "one of 60, 61, 70, 75, 80, 86, 89, 90 (sm_XY)"},
    {"cuda stream id", true, "a decimal stream id (0..9223372036854775807)"},
    {"shmem base_addr", true, "a hexadecimal address"},
    {"local mem base_addr", true, "a hexadecimal address"},
    {"nvbit version", true, "an NVBit version such as 1.5.5"},
    {"accelsim tracer version", true, "one of 1.2 (or another 1.x), 2, 3, 4, 5"},
    {"enable lineinfo", false, "0 or 1"},
    {"cluster dim", false, "(x,y,z) with 1..64 CTAs in total"},
}};

struct RawField {
  std::string value;
  std::uint64_t line = 0;
};

class HeaderParser {
 public:
  explicit HeaderParser(LineSource& lines) : lines_(lines) {}

  KernelHeader parse() {
    read_fields();
    KernelHeader h;
    KernelInfo& info = h.info;
    info.source = lines_.name();
    info.name = raw(kName).value;
    if (info.name.empty()) fail(kName);
    info.id = number<std::uint32_t>(kId, 0, UINT32_MAX);
    info.grid = dims(kGrid, {2147483647u, 65535u, 65535u}, UINT64_MAX);
    if (info.grid.count() > kMaxGridCtas) {
      throw_at(lines_.name(), raw(kGrid).line,
               fmt::format("-grid dim = ({},{},{}) is {} CTAs: expected at most {} CTAs in a "
                           "traced grid",
                           info.grid.x, info.grid.y, info.grid.z, info.grid.count(), kMaxGridCtas));
    }
    info.block = dims(kBlock, {1024u, 1024u, 64u}, 1024);
    info.shmem_bytes = number<std::uint32_t>(kShmem, 0, 256 * 1024);
    info.nregs = number<std::uint32_t>(kNregs, 1, 255);
    info.binary_version = number<int>(kBinaryVersion, 0, 1000);
    auto arch = isa::arch_from_binary_version(info.binary_version);
    if (!arch) fail(kBinaryVersion);
    info.arch = *arch;
    info.stream_id = number<std::int64_t>(kStream, 0, INT64_MAX);
    info.shmem_base = hex(kShmemBase);
    info.local_base = hex(kLocalBase);
    if (raw(kNvbit).value.empty()) fail(kNvbit);
    info.tracer_version = raw(kTracer).value;
    h.format.tracer_major = tracer_major(info.tracer_version);
    if (fields_[kLineinfo]) {
      if (h.format.tracer_major < 4) {
        throw_at(lines_.name(), fields_[kLineinfo]->line,
                 fmt::format("-enable lineinfo in a tracer version {} trace: expected it only "
                             "in versions 4 and 5",
                             info.tracer_version));
      }
      h.format.lineinfo = number<int>(kLineinfo, 0, 1) == 1;
    }
    if (fields_[kCluster]) read_cluster(info);
    return h;
  }

 private:
  void read_fields() {
    std::string_view line;
    while (lines_.next(line)) {
      std::string_view text = trim(line);
      if (text.empty()) continue;
      if (text.starts_with("#BEGIN_TB")) {
        lines_.unread();
        break;
      }
      if (text.front() == '#') continue;  // "#traces format = ..." describes the layout
      if (text.front() != '-') {
        throw_at(lines_, fmt::format("'{}': expected a header field '-<name> = <value>' or "
                                     "#BEGIN_TB",
                                     excerpt(text)));
      }
      store(text);
    }
    end_line_ = lines_.line_number();
    for (std::size_t f = 0; f < kNumFields; ++f) {
      if (kFields[f].required && !fields_[f]) {
        throw_at(lines_.name(), end_line_,
                 fmt::format("the kernel header has no -{}: expected '-{} = <{}>'", kFields[f].key,
                             kFields[f].key, kFields[f].expected));
      }
    }
  }

  void store(std::string_view text) {
    std::size_t eq = text.find('=');
    std::string_view key = trim(text.substr(1, eq == std::string_view::npos ? eq : eq - 1));
    for (std::size_t f = 0; f < kNumFields; ++f) {
      const bool match = eq == std::string_view::npos ? key.starts_with(kFields[f].key) &&
                                                            (key.size() == kFields[f].key.size() ||
                                                             is_blank(key[kFields[f].key.size()]))
                                                      : kFields[f].key == key;
      if (!match) continue;
      if (eq == std::string_view::npos) {
        throw_at(lines_, fmt::format("'{}': expected '-{} = <{}>'", excerpt(text), kFields[f].key,
                                     kFields[f].expected));
      }
      if (fields_[f]) {
        throw_at(lines_, fmt::format("-{} appears twice (first at line {}): expected it once", key,
                                     fields_[f]->line));
      }
      fields_[f] = RawField{std::string(trim(text.substr(eq + 1))), lines_.line_number()};
      return;
    }
    throw_at(lines_, fmt::format("unknown header field '{}': expected one of -kernel name, "
                                 "-kernel id, -grid dim, -block dim, -shmem, -nregs, -binary "
                                 "version, -cuda stream id, -shmem base_addr, -local mem "
                                 "base_addr, -nvbit version, -accelsim tracer version, -enable "
                                 "lineinfo, -cluster dim",
                                 excerpt(text)));
  }

  const RawField& raw(Field f) const { return *fields_[f]; }

  // Thread block clusters exist from sm_90 on and tile the grid.
  void read_cluster(KernelInfo& info) {
    info.cluster = dims(kCluster, {64u, 64u, 64u}, 64);
    info.cluster_line = raw(kCluster).line;
    const Dim3& c = info.cluster;
    const std::string text = fmt::format("-cluster dim = ({},{},{})", c.x, c.y, c.z);
    if (c.count() > 1 && info.arch < isa::Arch::kSm90) {
      throw_at(lines_.name(), info.cluster_line,
               fmt::format("{} in an sm_{} kernel: expected clusters only in sm_90 or later "
                           "binaries (or cluster dim (1,1,1))",
                           text, info.binary_version));
    }
    const Dim3& g = info.grid;
    if (g.x % c.x != 0 || g.y % c.y != 0 || g.z % c.z != 0) {
      throw_at(lines_.name(), info.cluster_line,
               fmt::format("{} with -grid dim = ({},{},{}): expected every grid dimension to be "
                           "a multiple of the cluster's",
                           text, g.x, g.y, g.z));
    }
  }

  [[noreturn]] void fail(Field f) const {
    throw_at(lines_.name(), raw(f).line,
             fmt::format("-{} = {}: expected {}", kFields[f].key, excerpt(raw(f).value),
                         kFields[f].expected));
  }

  template <typename T>
  T number(Field f, std::int64_t min, std::uint64_t max) {
    std::string_view v = raw(f).value;
    bool negative = !v.empty() && v.front() == '-';
    auto magnitude = parse_dec_u64(negative ? v.substr(1) : v);
    if (!magnitude || negative || *magnitude > max || static_cast<std::int64_t>(*magnitude) < min) {
      fail(f);
    }
    return static_cast<T>(*magnitude);
  }

  std::uint64_t hex(Field f) {
    std::string_view v = raw(f).value;
    if (!v.starts_with("0x") && !v.starts_with("0X")) fail(f);
    auto value = parse_hex_u64(v);
    if (!value) fail(f);
    return *value;
  }

  Dim3 dims(Field f, std::array<std::uint32_t, 3> max, std::uint64_t max_total) {
    std::string_view v = raw(f).value;
    if (v.size() < 2 || v.front() != '(' || v.back() != ')') fail(f);
    v = v.substr(1, v.size() - 2);
    std::array<std::uint32_t, 3> xyz{};
    for (std::size_t i = 0; i < 3; ++i) {
      std::size_t comma = v.find(',');
      if ((comma == std::string_view::npos) != (i == 2)) fail(f);
      auto n = parse_dec_u64(trim(v.substr(0, comma)));
      if (!n || *n < 1 || *n > max[i]) fail(f);
      xyz[i] = static_cast<std::uint32_t>(*n);
      if (comma != std::string_view::npos) v.remove_prefix(comma + 1);
    }
    Dim3 d{xyz[0], xyz[1], xyz[2]};
    if (d.count() > max_total) fail(f);
    return d;
  }

  int tracer_major(std::string_view v) {
    std::size_t dot = v.find('.');
    auto major = parse_dec_u32(v.substr(0, dot));
    bool minor_ok = dot == std::string_view::npos || parse_dec_u32(v.substr(dot + 1)).has_value();
    if (!major || !minor_ok || *major < 1 || *major > 5) fail(kTracer);
    if (*major >= 3 && dot != std::string_view::npos) fail(kTracer);  // 3, 4, 5 have no minor
    return static_cast<int>(*major);
  }

  LineSource& lines_;
  std::array<std::optional<RawField>, kNumFields> fields_;
  std::uint64_t end_line_ = 0;
};

}  // namespace

KernelHeader read_kernel_header(LineSource& lines) {
  return HeaderParser(lines).parse();
}

}  // namespace sassim::traces
