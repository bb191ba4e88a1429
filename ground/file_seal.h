#pragma once
// A seal over a file's contents, kept in the file's first kSealBytes: the HDF5 user block
// of a results file, which HDF5 readers skip. It holds the byte count and CRC-32 (the
// IEEE polynomial of zlib and Python's zlib.crc32) of everything after it, so that a
// reader finds a flipped bit or a truncation before handing the file to a library that
// trusts its contents. Text: "sassim-seal v1 bytes=N crc32=xxxxxxxx\n", zero-padded.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

namespace sassim {

inline constexpr std::size_t kSealBytes = 512;

std::uint32_t crc32(std::span<const unsigned char> bytes, std::uint32_t crc = 0);

// Writes the seal of `file`, whose first kSealBytes are reserved (zero). Error naming the
// file when it cannot be read or written.
void write_seal(const std::filesystem::path& file);

// Error naming the file when it has no seal (not written by `sassim run --out`, or by
// a build older than seals), when the seal does not match (damaged or truncated: the
// bytes found and sealed), or when it cannot be read.
void check_seal(const std::filesystem::path& file);

}  // namespace sassim
