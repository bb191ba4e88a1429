#pragma once
// A KernelTrace over the lines of one Accel-Sim kernel trace (file or memory): the
// header is read on construction, each next_cta() reads exactly one CTA.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "isa/opcode.h"
#include "traces/cta_coverage.h"
#include "traces/instruction_line.h"
#include "traces/kernel_header.h"
#include "traces/kernel_trace.h"
#include "traces/line_source.h"
#include "traces/trace_store.h"

namespace sassim::traces {

class AccelsimKernelTrace final : public KernelTrace {
 public:
  // Reads the header from `lines`; throws sassim::Error when it is malformed. CTAs are
  // encoded into `store` (null: default_trace_store()).
  explicit AccelsimKernelTrace(std::unique_ptr<LineSource> lines,
                               std::shared_ptr<TraceStore> store = nullptr);

  const KernelInfo& info() const override { return header_.info; }
  const StaticInstTable& statics() const override { return statics_; }
  std::optional<CtaTrace> next_cta() override;
  std::uint64_t static_line(std::uint32_t static_index) const override {
    return decoded_at_line_[static_index];
  }

  // The opcode text ("LDG.E.128.SYS") of a static instruction.
  const std::string& opcode_text(std::uint32_t static_index) const {
    return opcode_text_[static_index];
  }

 private:
  bool next_nonblank(std::string_view& line);
  Dim3 read_cta_id();
  // At #END_TB: every warp of the block was in the CTA.
  void check_warps(const std::vector<bool>& seen) const;
  void read_warp(std::string_view warp_line, CtaTrace& cta, std::vector<bool>& seen);
  void read_insts(std::uint32_t w, std::uint64_t count, WarpStreamWriter& writer);
  std::uint32_t static_index(const InstructionLine& inst);
  std::uint32_t decode(const InstructionLine& inst);
  // Rewrites the addresses of an asynchronous operation's line (from `begin`) into its
  // record (kernel_trace.h).
  void keep_async_record(isa::AsyncOp op, std::size_t begin,
                         std::vector<std::uint64_t>& addresses) const;

  std::unique_ptr<LineSource> lines_;
  std::shared_ptr<TraceStore> store_;
  KernelHeader header_;
  const isa::OpcodeTable& opcodes_;
  StaticInstTable statics_;
  std::vector<std::string> opcode_text_;        // per static instruction
  std::vector<std::uint64_t> decoded_at_line_;  // per static instruction
  InstructionLine scratch_;
  std::vector<std::uint64_t> line_addresses_;  // of the line being read
  Dim3 cta_id_;                                // CTA being read (for messages)
  std::uint64_t cta_line_ = 0;                 // line of its #BEGIN_TB
  std::optional<std::pair<std::uint32_t, std::uint64_t>> prev_warp_;  // last warp read, insts
  std::uint32_t last_index_ = 0;  // static index of the previous line (lookup shortcut)
  CtaCoverage coverage_;          // CTAs of the grid read so far
};

}  // namespace sassim::traces
