#include "ground/file_seal.h"

#include <array>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim {
namespace {

constexpr std::string_view kMagic = "sassim-seal v1 ";

constexpr std::array<std::uint32_t, 256> make_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) != 0 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}
constexpr std::array<std::uint32_t, 256> kTable = make_table();

struct Contents {
  std::uint64_t bytes = 0;
  std::uint32_t crc = 0;
};

// The byte count and CRC of everything after the seal; `head` receives the seal bytes.
Contents read_contents(const std::filesystem::path& file, std::string& head) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot read the file", file.string()));
  head.assign(kSealBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(kSealBytes));
  head.resize(static_cast<std::size_t>(in.gcount()));
  Contents c;
  std::vector<unsigned char> buffer(1 << 20);
  while (in) {
    in.read(reinterpret_cast<char*>(buffer.data()), static_cast<std::streamsize>(buffer.size()));
    const auto n = static_cast<std::size_t>(in.gcount());
    c.crc = crc32(std::span(buffer.data(), n), c.crc);
    c.bytes += n;
  }
  if (in.bad()) throw Error(fmt::format("{}: cannot read the file", file.string()));
  return c;
}

}  // namespace

std::uint32_t crc32(std::span<const unsigned char> bytes, std::uint32_t crc) {
  crc = ~crc;
  for (const unsigned char b : bytes) crc = kTable[(crc ^ b) & 0xffu] ^ (crc >> 8);
  return ~crc;
}

void write_seal(const std::filesystem::path& file) {
  std::string head;
  const Contents c = read_contents(file, head);
  if (head.size() != kSealBytes || head.find_first_not_of('\0') != std::string::npos) {
    throw Error(fmt::format("{}: internal: no free {} bytes at the start for the seal",
                            file.string(), kSealBytes));
  }
  std::string seal = fmt::format("{}bytes={} crc32={:08x}\n", kMagic, c.bytes, c.crc);
  seal.resize(kSealBytes, '\0');
  std::fstream out(file, std::ios::binary | std::ios::in | std::ios::out);
  out.write(seal.data(), static_cast<std::streamsize>(seal.size()));
  out.flush();
  if (!out) throw Error(fmt::format("{}: cannot write the seal", file.string()));
}

void check_seal(const std::filesystem::path& file) {
  std::string head;
  const Contents c = read_contents(file, head);
  if (head.compare(0, kMagic.size(), kMagic) != 0) {
    throw Error(fmt::format(
        "{}: no seal in its first {} bytes: not a results file of `sassim run --out`, or one "
        "written by a build older than seals, whose contents cannot be checked (run it again)",
        file.string(), kSealBytes));
  }
  unsigned long long bytes = 0;
  unsigned crc = 0;
  const std::string text = head.substr(0, head.find('\n'));
  if (std::sscanf(text.c_str() + kMagic.size(), "bytes=%llu crc32=%8x", &bytes, &crc) != 2) {
    throw Error(fmt::format("{}: damaged: its seal '{}' cannot be read", file.string(), text));
  }
  if (c.bytes != bytes) {
    throw Error(fmt::format("{}: truncated or damaged: {} bytes after the seal, {} sealed",
                            file.string(), c.bytes, bytes));
  }
  if (c.crc != crc) {
    throw Error(fmt::format("{}: damaged: CRC-32 {:08x} of its contents, {:08x} sealed",
                            file.string(), c.crc, crc));
  }
}

}  // namespace sassim
