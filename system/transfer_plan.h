#pragma once
// A collective as the simulator sees it: transfers of bytes between vertices of the
// topology, each issued by one program (a channel's CTA on a GPU, issuing its transfers
// in the order they were added) once the transfers it depends on have arrived.
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

namespace sassim::system {

struct Transfer {
  uint32_t from = 0;  // vertex ids
  uint32_t to = 0;
  uint64_t payload_bytes = 0;  // data moved
  uint64_t wire_bytes = 0;     // bytes on the links (protocol flags and efficiency included)
  uint32_t program = 0;
  bool reduce = false;  // the receiver adds the data to its own (reads its copy)
};

class TransferPlan {
 public:
  // A new program run by the GPU of `rank` (a CTA); returns its id.
  uint32_t add_program(uint32_t rank);
  // Adds a transfer issued by its program after the previous one of that program and
  // after every transfer in `deps` (ids of earlier transfers) has arrived. Returns its id.
  uint32_t add(const Transfer& transfer, std::span<const uint32_t> deps);
  uint32_t add(const Transfer& transfer, std::initializer_list<uint32_t> deps) {
    return add(transfer, std::span<const uint32_t>(deps.begin(), deps.size()));
  }

  std::size_t size() const { return transfers_.size(); }
  const Transfer& transfer(uint32_t id) const { return transfers_[id]; }
  std::span<const uint32_t> deps_of(uint32_t id) const {
    return {deps_.data() + dep_begin_[id], dep_begin_[id + 1] - dep_begin_[id]};
  }
  // The previous transfer of the same program; -1 for its first.
  int64_t program_predecessor(uint32_t id) const { return previous_[id]; }
  uint32_t program_count() const { return static_cast<uint32_t>(program_rank_.size()); }
  uint32_t program_rank(uint32_t program) const { return program_rank_[program]; }

 private:
  std::vector<Transfer> transfers_;
  std::vector<uint32_t> deps_;
  std::vector<uint32_t> dep_begin_{0};
  std::vector<int64_t> previous_;
  std::vector<uint32_t> program_rank_;
  std::vector<int64_t> program_last_;
};

}  // namespace sassim::system
