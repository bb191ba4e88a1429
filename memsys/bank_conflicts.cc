#include "memsys/bank_conflicts.h"

#include <algorithm>
#include <array>
#include <bit>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::memsys {
namespace {

constexpr std::uint32_t kWarpLanes = 32;
constexpr std::uint32_t kMaxBytesPerThread = 16;
constexpr std::uint32_t kMaxBanks = 128;
// Words one phase can address: every lane of a warp, each access spanning at most
// bytes_per_thread + 1 words (one more when misaligned).
constexpr std::size_t kMaxWordsPerPhase = kWarpLanes * (kMaxBytesPerThread + 1);

// Distinct words in the busiest bank among words[0, count) (sorted in place).
std::uint32_t max_words_per_bank(std::array<std::uint64_t, kMaxWordsPerPhase>& words,
                                 std::size_t count, std::uint32_t banks) {
  if (count == 0) return 0;
  std::sort(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(count));
  std::array<std::uint32_t, kMaxBanks> per_bank{};
  std::uint32_t most = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0 && words[i] == words[i - 1]) continue;  // broadcast: one word serves all
    std::uint32_t& n = per_bank[words[i] % banks];
    most = std::max(most, ++n);
  }
  return most;
}

}  // namespace

std::uint32_t shared_bank_passes(std::span<const std::uint64_t> addresses,
                                 std::uint32_t active_mask, std::uint32_t bytes_per_thread,
                                 const SharedBankGeometry& geometry) {
  if (bytes_per_thread == 0 || bytes_per_thread > kMaxBytesPerThread ||
      !std::has_single_bit(bytes_per_thread)) {
    throw Error(
        fmt::format("shared memory access of {} bytes per thread: expected 1, 2, 4, 8 or 16",
                    bytes_per_thread));
  }
  const std::uint32_t banks = std::clamp(geometry.banks, 1u, kMaxBanks);
  const std::uint32_t bank_bytes = std::max(geometry.bank_bytes, 1u);
  // Phases: enough that one phase's lanes ask for at most one pass's worth of bytes.
  const std::uint32_t warp_bytes = kWarpLanes * bytes_per_thread;
  const std::uint32_t pass_bytes = banks * bank_bytes;
  const std::uint32_t phases =
      std::min(kWarpLanes, std::bit_ceil(std::max(1u, (warp_bytes + pass_bytes - 1) / pass_bytes)));
  const std::uint32_t lanes_per_phase = kWarpLanes / phases;

  std::array<std::uint64_t, kMaxWordsPerPhase> words;
  std::size_t count = 0;
  std::uint32_t passes = 0;
  std::uint32_t phase = 0;
  std::size_t next_address = 0;
  for (std::uint32_t lane = 0; lane < kWarpLanes; ++lane) {
    if (lane / lanes_per_phase != phase) {
      passes += max_words_per_bank(words, count, banks);
      count = 0;
      phase = lane / lanes_per_phase;
    }
    if ((active_mask >> lane & 1u) == 0 || next_address >= addresses.size()) continue;
    const std::uint64_t address = addresses[next_address++];
    const std::uint64_t first_word = address / bank_bytes;
    const std::uint64_t last_word = (address + bytes_per_thread - 1) / bank_bytes;
    for (std::uint64_t w = first_word; w <= last_word; ++w) words[count++] = w;
  }
  passes += max_words_per_bank(words, count, banks);
  return passes;
}

}  // namespace sassim::memsys
