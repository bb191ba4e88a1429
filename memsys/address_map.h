#pragma once
// Where a line lives: its L2 slice (by the configured address hash), its index
// within that slice, and the DRAM channel behind the slice that holds it.
//
// Slice hashes, chosen by l2.address_hash:
//   "linear": slice = line % slices.
//   "xor":    the line index is cut into fields of b bits (b = bits needed to count
//             the slices: ceil(log2(slices))), the fields are XORed together and the
//             result taken modulo slices. With a power-of-two slice count this is a
//             permutation within each aligned group of `slices` lines, so strides that
//             are multiples of the slice count still spread over every slice.
// A slice's own lines are numbered local = line / slices (its sets index on that).
//
// Slices to channels (deterministic, even when one count divides the other):
//   channels <= slices: slice j uses channel j % channels (each channel serves
//                       slices/channels slices);
//   channels > slices:  slice j uses channels j, j + slices, j + 2*slices, ... and
//                       spreads its lines over them by local % (its channel count).
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

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
    const std::uint32_t begin = slice_channel_begin_[slice];
    const std::uint32_t count = slice_channel_begin_[slice + 1] - begin;
    return slice_channels_[begin + (count == 1 ? 0 : local_line(line) % count)];
  }
  std::span<const std::uint32_t> channels_of_slice(std::uint32_t slice) const {
    return {slice_channels_.data() + slice_channel_begin_[slice],
            slice_channel_begin_[slice + 1] - slice_channel_begin_[slice]};
  }
  // Registered hash names, for messages.
  static std::string_view hash_names();

 private:
  std::uint32_t slices_;
  std::uint32_t channels_;
  std::uint32_t bits_;
  SliceHash hash_;
  std::vector<std::uint32_t> slice_channel_begin_;  // slices_ + 1 offsets into slice_channels_
  std::vector<std::uint32_t> slice_channels_;
};

}  // namespace sassim::memsys
