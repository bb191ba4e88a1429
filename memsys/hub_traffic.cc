#include "memsys/hub_traffic.h"

#include <algorithm>

#include <fmt/format.h>

namespace sassim::memsys {

HubTraffic::HubTraffic(Clock clock, std::uint32_t line_bytes, std::uint32_t sector_bytes,
                       std::uint16_t source, Link<MemRequest>& to_noc, Link<MemResponse>& from_noc,
                       Doorbell& inbox)
    : clock_(clock),
      line_bytes_(line_bytes),
      sector_bytes_(sector_bytes),
      source_(source),
      to_noc_(to_noc),
      from_noc_(from_noc),
      inbox_(inbox) {
  inbox_.owner = this;
}

Picos HubTraffic::Stream::due(std::uint64_t i, Picos begin, Picos end) const {
  // span x i / requests without overflow (i < requests): whole spans, then the rest.
  const Picos span = end - begin;
  return begin + span / requests * i + span % requests * i / requests;
}

HubTraffic::Stream HubTraffic::stream(std::uint64_t bytes, std::uint64_t base) const {
  Stream s;
  s.bytes = bytes;
  s.requests = (bytes + line_bytes_ - 1) / line_bytes_;
  s.base = base;
  return s;
}

void HubTraffic::add_flow(Picos begin, Picos end, std::uint64_t read_bytes,
                          std::uint64_t write_bytes) {
  Flow f{begin, std::max(begin, end), stream(read_bytes, kHubReadBase),
         stream(write_bytes, kHubWriteBase)};
  if (f.done()) return;
  flows_.push_back(f);
  ++counters_.flows;
  next_ps_ = std::min(next_ps_, clock_.edge(clock_.cycle_at_or_after(begin)));
  mark_changed();
}

Picos HubTraffic::next_due(const Flow& f, const Stream& s) {
  return s.sent == s.requests ? kNever : s.due(s.sent, f.begin, f.end);
}

void HubTraffic::send_one(Stream& s, bool write, Picos now) {
  const std::uint64_t offset = s.sent * line_bytes_;
  const std::uint64_t bytes = std::min<std::uint64_t>(line_bytes_, s.bytes - offset);
  const auto sectors = static_cast<std::uint32_t>((bytes + sector_bytes_ - 1) / sector_bytes_);
  MemRequest r;
  r.line = (s.base + offset) / line_bytes_;
  r.sector_mask = sectors >= 32 ? ~0u : (1u << sectors) - 1;
  r.sm = source_;
  r.kind = write ? ReqKind::kWrite : ReqKind::kRead;
  if (write) r.full_mask = r.sector_mask;
  to_noc_.push(r, now, now + 1);
  ++s.sent;
  const std::uint64_t sent_bytes = std::uint64_t{sectors} * sector_bytes_;
  if (write) {
    counters_.write_bytes += sent_bytes;
    ++counters_.write_requests;
  } else {
    counters_.read_bytes += sent_bytes;
    ++counters_.read_requests;
    ++outstanding_;
  }
}

bool HubTraffic::tick(std::uint64_t /*cycle*/, Picos now) {
  bool progress = false;
  while (from_noc_.ready(now)) {
    from_noc_.pop();
    --outstanding_;
    ++counters_.responses;
    progress = true;
  }
  // Flows in the order added; within one, reads and writes by due time (reads first on
  // a tie).
  for (Flow& f : flows_) {
    while (!to_noc_.full()) {
      const Picos read = next_due(f, f.reads), write = next_due(f, f.writes);
      if (std::min(read, write) > now) break;
      send_one(write < read ? f.writes : f.reads, write < read, now);
      progress = true;
    }
    if (to_noc_.full()) break;
  }
  std::erase_if(flows_, [](const Flow& f) { return f.done(); });
  next_ps_ = compute_next(now);
  inbox_.reset(from_noc_.empty() ? kNever : from_noc_.front_ready_ps());
  return progress;
}

Picos HubTraffic::compute_next(Picos now) const {
  Picos next = kNever;
  for (const Flow& f : flows_) {
    for (const Stream* s : {&f.reads, &f.writes}) {
      if (s->sent == s->requests) continue;
      const Picos due = std::max(s->due(s->sent, f.begin, f.end), now + 1);
      next = std::min(next, clock_.edge(clock_.cycle_at_or_after(due)));
    }
  }
  return next;
}

std::string HubTraffic::describe_state() const {
  std::uint64_t left = 0;
  for (const Flow& f : flows_) {
    left += f.reads.requests - f.reads.sent + f.writes.requests - f.writes.sent;
  }
  return fmt::format("{} flows with {} requests to send; {} reads outstanding; next at {} ps",
                     flows_.size(), left, outstanding_, next_ps_);
}

void HubTraffic::report(StatSink& sink) const {
  sink.add_counter(name_, "flows", static_cast<double>(counters_.flows));
  sink.add_counter(name_, "read_bytes", static_cast<double>(counters_.read_bytes));
  sink.add_counter(name_, "write_bytes", static_cast<double>(counters_.write_bytes));
}

}  // namespace sassim::memsys
