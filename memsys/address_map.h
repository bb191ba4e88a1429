#pragma once
// Where a line lives: its L2 slice (by the configured address hash), its index
// within that slice, and the DRAM channel behind the slice that holds it.
//
// Slice hashes, chosen by l2.address_hash (names in config::kAddressHashes):
//   "linear": slice = line % slices.
//   "xor":    the line's group index q = line / slices is cut into fields of b bits
//             (b = ceil(log2(slices))) that are XORed together into h; the line's
//             place in its group, r = line % slices, becomes r XOR h when the slice
//             count is a power of two (the classic XOR-fold of every b-bit field of
//             the line index) and (r + h) % slices otherwise. Each group of `slices`
//             consecutive lines still covers every slice once (streams stay even),
//             while strides that are multiples of the slice count spread too.
//   "ipoly":  slices = 2^k x m (m odd): slice = (line % m) x 2^k + ((line / m) mod P),
//             the quotient read as a polynomial over GF(2) and P a primitive
//             polynomial of degree k (Rau, ISCA 1991; GPGPU-Sim's IPOLY). Aligned
//             groups of `slices` consecutive lines cover every slice once, and lines
//             2^j apart spread evenly over all slices; but lines a multiple of m apart
//             all fall in one group of 2^k slices (1/m of them): "xor" spreads those.
// A slice's own lines are numbered local = line / slices (its sets index on that).
//
// Slices to channels (deterministic, even when one count divides the other):
//   channels <= slices: slice j uses channel j % channels (each channel serves
//                       slices/channels slices);
//   channels > slices:  slice j uses channels j, j + slices, j + 2*slices, ... (n of
//                       them) and spreads its lines over them as the "xor" hash spreads
//                       lines over slices (memsys/xor_fold.h). Aligned groups of n local
//                       lines still cover every channel once, and streams a multiple of
//                       the slice count apart (the rows of a weight matrix read side by
//                       side) no longer favour one channel: with local % n alone, rows
//                       8 KiB apart on 96 slices and 192 channels put two thirds of a
//                       slice's lines on one of its two channels.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "memsys/xor_fold.h"

namespace sassim::memsys {

class AddressMap {
 public:
  using SliceHash = std::uint32_t (*)(std::uint64_t line, std::uint32_t slices, std::uint32_t bits);

  // Throws sassim::Error for an unknown hash name.
  AddressMap(std::uint32_t slices, std::uint32_t channels, std::string_view hash_name);

  std::uint32_t slices() const { return slices_; }
  std::uint32_t channels() const { return channels_; }
  std::uint32_t slice_of(std::uint64_t line) const { return hash_(line, slices_, bits_); }
  std::uint64_t local_line(std::uint64_t line) const { return line / slices_; }
  std::uint32_t channel_of(std::uint64_t line) const { return channel_of(slice_of(line), line); }
  // The channel of a line known to live in slice.
  std::uint32_t channel_of(std::uint32_t slice, std::uint64_t line) const {
    return slice_channels_[slice_channel_begin_[slice] + channel_slot(slice, line)];
  }
  // Position of that channel in channels_of_slice(slice).
  std::uint32_t channel_slot(std::uint32_t slice, std::uint64_t line) const {
    const std::uint32_t count = slice_channel_begin_[slice + 1] - slice_channel_begin_[slice];
    if (count == 1) return 0;
    return static_cast<std::uint32_t>(
        xor_fold_index(local_line(line), count, xor_fold_bits(count)));
  }
  std::span<const std::uint32_t> channels_of_slice(std::uint32_t slice) const {
    return {slice_channels_.data() + slice_channel_begin_[slice],
            slice_channel_begin_[slice + 1] - slice_channel_begin_[slice]};
  }

 private:
  std::uint32_t slices_;
  std::uint32_t channels_;
  std::uint32_t bits_;
  SliceHash hash_;
  std::vector<std::uint32_t> slice_channel_begin_;  // slices_ + 1 offsets into slice_channels_
  std::vector<std::uint32_t> slice_channels_;
};

}  // namespace sassim::memsys
