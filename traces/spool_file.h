#pragma once
// An unlinked temporary file that holds trace chunks beyond the memory budget. Space is
// handed out in power-of-two runs of kChunkBytes slots, and runs given back are reused
// first, so the file grows with the chunks held at once, not with all ever written.
// Every failure is a sassim::Error naming the spool and the operating system's reason.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace sassim::traces {

class SpoolFile {
 public:
  // Nothing is created until the first write; `dir` empty: $TMPDIR, else /tmp.
  explicit SpoolFile(std::filesystem::path dir);
  ~SpoolFile();
  SpoolFile(const SpoolFile&) = delete;
  SpoolFile& operator=(const SpoolFile&) = delete;

  // Writes `bytes` into free space and returns its offset.
  std::uint64_t write(std::span<const std::byte> bytes);
  // Reads `size` bytes written at `offset` into `out` and frees their space.
  void take(std::uint64_t offset, std::size_t size, std::vector<std::byte>& out);
  // Frees the space of `size` bytes written at `offset`, unread.
  void free(std::uint64_t offset, std::size_t size);

  std::uint64_t file_bytes() const { return end_; }  // space ever handed out (the file's size)
  std::uint64_t used_bytes() const { return used_; }
  const std::string& name() const { return name_; }

 private:
  void open();
  static unsigned size_class(std::size_t size);
  [[noreturn]] void fail(const std::string& what, int error) const;

  std::filesystem::path dir_;
  std::string name_;
  int fd_ = -1;
  std::uint64_t end_ = 0;
  std::uint64_t used_ = 0;
  std::vector<std::vector<std::uint64_t>> free_;  // offsets of free runs, by size class
};

}  // namespace sassim::traces
