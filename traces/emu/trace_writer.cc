#include "traces/emu/trace_writer.h"

#include <fmt/format.h>

#include <cstring>
#include <fstream>

#include "ground/error.h"

namespace sassim::emu {
namespace {

constexpr char kHex[] = "0123456789abcdef";

char* put_hex(char* o, uint64_t v, int min_digits) {
  char buf[16];
  int n = 0;
  do {
    buf[n++] = kHex[v & 0xfU];
    v >>= 4;
  } while (v != 0);
  while (n < min_digits) buf[n++] = '0';
  while (n > 0) *o++ = buf[--n];
  return o;
}

char* put_dec(char* o, int64_t v) {
  if (v < 0) *o++ = '-';
  uint64_t u = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  char buf[20];
  int n = 0;
  do {
    buf[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  while (n > 0) *o++ = buf[--n];
  return o;
}

char* put(char* o, std::string_view text) {
  std::memcpy(o, text.data(), text.size());
  return o + text.size();
}

bool records_addresses(const Inst& inst) {
  if (inst.op == Op::kLdsm) return true;
  return inst.unit == Unit::kMem && inst.op != Op::kLdc;
}

// A TMA load's fields after its memory width (0), as Accel-Sim's tracer writes them:
// "0xMBARRIER MULTICAST [0xMASK] BYTES OOB_BYTES 4 0xFIRST COUNT DELTAS..." (mode 4, base
// and deltas). `r` holds the mbarrier, the bytes, the bytes out of bounds, the multicast
// mask (0: none), the transfers.
char* put_tma_fields(char* o, const uint64_t* r, uint32_t n) {
  o = put(o, "0 0x");
  o = put_hex(o, r[0], 1);
  if (r[3] != 0) {
    o = put(o, " 1 0x");
    o = put_hex(o, r[3], 1);
    *o++ = ' ';
  } else {
    o = put(o, " 0 ");
  }
  o = put_dec(o, static_cast<int64_t>(r[1]));
  *o++ = ' ';
  o = put_dec(o, static_cast<int64_t>(r[2]));
  o = put(o, " 4 0x");
  o = put_hex(o, n > 4 ? r[4] : 0, 1);
  *o++ = ' ';
  o = put_dec(o, n - 4);
  for (uint32_t k = 5; k < n; ++k) {
    *o++ = ' ';
    o = put_dec(o, static_cast<int64_t>(r[k] - r[k - 1]));
  }
  return o;
}

}  // namespace

TraceWriter::TraceWriter(const std::filesystem::path& folder, traces::Compression compression,
                         const Program& program, const std::vector<HostCopy>& copies,
                         const TraceSlot& slot)
    : program_(program), slot_(slot) {
  const std::string name =
      fmt::format("kernel-{}.traceg{}", slot.kernel_id, traces::compression_suffix(compression));
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  {
    std::ofstream list(folder / "kernelslist.g",
                       slot.append_to_list ? std::ios::app : std::ios::trunc);
    for (const HostCopy& c : copies)
      list << fmt::format("MemcpyHtoD,0x{:x},{}\n", c.address, c.bytes);
    list << name << "\n";
    if (!list) throw Error(fmt::format("cannot write {}", (folder / "kernelslist.g").string()));
  }
  file_ = traces::open_output_file(folder / name, compression);
  for (size_t i = 0; i < program.insts.size(); ++i) {
    const Inst& inst = program.insts[i];
    prefix_.push_back(fmt::format("{:04x}", inst.pc) + "\n" + program.trace_text[i] + " ");
    pc_length_.push_back(static_cast<uint8_t>(prefix_.back().find('\n')));
    suffix_.push_back(fmt::format(" {}\n", program.trace_immediate[i]));
    mem_width_.push_back(records_addresses(inst) ? (inst.op == Op::kLdsm ? 16 : inst.width) : 0);
  }
}

void TraceWriter::append(std::string_view text) {
  if (used_ + text.size() > buffer_.size()) flush();
  if (text.size() > buffer_.size()) buffer_.resize(text.size());
  used_ = static_cast<size_t>(put(buffer_.data() + used_, text) - buffer_.data());
}

void TraceWriter::write_header(const TraceHeader& h) {
  append(fmt::format(
      "-kernel name = {}\n-kernel id = {}\n-grid dim = ({},{},{})\n-block dim = ({},{},{})\n"
      "-shmem = {}\n-nregs = {}\n-binary version = {}\n-cuda stream id = {}\n"
      "-shmem base_addr = 0x{:016x}\n-local mem base_addr = 0x{:016x}\n-nvbit version = 1.7\n"
      "-accelsim tracer version = 5\n-enable lineinfo = 0\n{}\n"
      "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
      "mem_width [adrrescompress?] [mem_addresses] immediate\n\n",
      h.kernel_name, slot_.kernel_id, h.grid.x, h.grid.y, h.grid.z, h.block.x, h.block.y, h.block.z,
      h.shmem_bytes, std::max<uint32_t>(h.nregs, 1), h.binary_version, slot_.stream_id,
      kTraceSharedBase, kTraceLocalBase,
      uint64_t{h.cluster.x} * h.cluster.y * h.cluster.z > 1
          ? fmt::format("-cluster dim = ({},{},{})\n", h.cluster.x, h.cluster.y, h.cluster.z)
          : std::string()));
  flush();
}

void TraceWriter::line(const Warp& w, const TraceRecord& r) {
  // prefix_ is "PC\nTEXT ": the mask goes where the newline is.
  const std::string& prefix = prefix_[r.inst];
  const std::string& suffix = suffix_[r.inst];
  const size_t worst = prefix.size() + suffix.size() + 48 + size_t{r.addr_count} * 22;
  if (used_ + worst > buffer_.size()) {
    flush();
    if (worst > buffer_.size()) buffer_.resize(worst);
  }
  char* o = buffer_.data() + used_;
  const size_t pc_length = pc_length_[r.inst];
  o = put(o, std::string_view(prefix).substr(0, pc_length));
  *o++ = ' ';
  o = r.mask == ~0U ? put(o, "ffffffff") : put_hex(o, r.mask, 8);
  *o++ = ' ';
  o = put(o, std::string_view(prefix).substr(pc_length + 1));
  const uint8_t width = mem_width_[r.inst];
  const Op op = program_.insts[r.inst].op;
  const uint64_t* record = w.addrs.data() + r.addr_begin;
  // A SYNCS line: its barrier (8 bytes, one address for all lanes), then its value as the
  // immediate -(1 + value) (traces/kernel_trace.h).
  const bool syncs = op == Op::kSyncs && r.addr_count == 2;
  if (op == Op::kUtmaldg && r.addr_count >= 4) {
    o = put_tma_fields(o, record, r.addr_count);
  } else if (syncs) {
    o = put(o, "8 1 0x");
    o = put_hex(o, record[0], 1);
    o = put(o, " 0");
  } else if (width == 0) {
    *o++ = '0';
  } else {
    o = put_dec(o, width);
    const uint64_t* a = record;
    const uint32_t n = r.addr_count;
    if (n == 0) {
      o = put(o, " 1 0x0 0");
    } else {
      bool strided = true;
      const int64_t stride = n > 1 ? static_cast<int64_t>(a[1] - a[0]) : 0;
      for (uint32_t k = 2; k < n && strided; ++k)
        strided = static_cast<int64_t>(a[k] - a[k - 1]) == stride;
      o = put(o, strided ? " 1 0x" : " 2 0x");
      o = put_hex(o, a[0], 1);
      if (strided) {
        *o++ = ' ';
        o = put_dec(o, stride);
      } else {
        for (uint32_t k = 1; k < n; ++k) {
          *o++ = ' ';
          o = put_dec(o, static_cast<int64_t>(a[k] - a[k - 1]));
        }
      }
    }
  }
  if (syncs) {
    *o++ = ' ';
    o = put_dec(o, record[1] == ~uint64_t{0} ? 0 : -1 - static_cast<int64_t>(record[1]));
    *o++ = '\n';
  } else {
    o = put(o, suffix);
  }
  used_ = static_cast<size_t>(o - buffer_.data());
  ++lines_;
}

void TraceWriter::write_cta(const Cta& cta) {
  append(fmt::format("#BEGIN_TB\n\nthread block = {},{},{}\n\n", cta.id.x, cta.id.y, cta.id.z));
  for (const Warp& w : cta.warps) {
    append(fmt::format("warp = {}\ninsts = {}\n", w.index, w.trace.size()));
    for (const TraceRecord& r : w.trace) line(w, r);
    append("\n");
  }
  append("#END_TB\n\n");
}

void TraceWriter::flush() {
  if (used_ == 0) return;
  file_->write(std::string_view(buffer_.data(), used_));
  used_ = 0;
}

void TraceWriter::close() {
  flush();
  file_->close();
}

}  // namespace sassim::emu
