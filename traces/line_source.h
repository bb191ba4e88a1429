#pragma once
// A stream of text lines read in large blocks from a plain file, an .xz or .zst file
// (decompressed in-process by liblzma or libzstd, streaming) or memory. Memory use is bounded by
// the block size and the longest line (at most kMaxLineBytes), whatever the size of the input.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sassim::traces {

class LineSource {
 public:
  virtual ~LineSource() = default;
  LineSource(const LineSource&) = delete;
  LineSource& operator=(const LineSource&) = delete;

  // The next line without its line ending; false at the end of the input. The view is
  // valid until the next call.
  bool next(std::string_view& line);
  // A line longer than this is an error naming the line (no trace line comes near it; a
  // damaged file can hold gigabytes without a newline).
  static constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;
  // Makes the next call to next() return the last line again.
  void unread() { replay_ = true; }
  // 1-based number of the last line returned (0 before the first).
  std::uint64_t line_number() const { return line_number_; }
  // The name used in messages (the file path, or the name given for in-memory text).
  const std::string& name() const { return name_; }

 protected:
  explicit LineSource(std::string name) : name_(std::move(name)) {}
  // Copies up to `capacity` bytes of input to `out`; returns 0 at the end of the input.
  // Throws sassim::Error on read or decompression errors.
  virtual std::size_t read(char* out, std::size_t capacity) = 0;

 private:
  static constexpr std::size_t kBlockBytes = std::size_t{1} << 20;

  std::string name_;
  // Not zero-filled: a small file touches only the pages it fills.
  std::unique_ptr<char[]> buffer_;
  std::size_t capacity_ = 0;
  std::size_t begin_ = 0;    // first byte not yet returned
  std::size_t end_ = 0;      // end of the valid bytes
  std::size_t scanned_ = 0;  // bytes from begin_ already searched for '\n'
  bool eof_ = false;
  bool replay_ = false;
  std::string_view last_;
  std::uint64_t line_number_ = 0;
};

// Opens a trace file; xz and zstd content (recognized by its magic bytes) is
// decompressed on the fly. Throws sassim::Error when the file cannot be opened.
std::unique_ptr<LineSource> open_line_source(const std::filesystem::path& path);

// Lines of in-memory text; `name` is used in messages.
std::unique_ptr<LineSource> memory_line_source(std::string text, std::string name);

}  // namespace sassim::traces
