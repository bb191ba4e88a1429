#pragma once
// Where a trace writer's bytes go: a plain file, or a zstd stream compressed as the bytes
// arrive (one output block at a time, never the whole trace in memory).
#include <filesystem>
#include <memory>
#include <string_view>

namespace sassim::traces {

enum class Compression { kNone, kZstd };

// Level of `sassim capture`'s traces: about 10x smaller than text and faster to write.
inline constexpr int kDefaultZstdLevel = 3;

// The file name suffix of `compression`: "" or ".zst".
std::string_view compression_suffix(Compression compression);

class OutputFile {
 public:
  virtual ~OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Throws sassim::Error naming the file when writing fails.
  virtual void write(std::string_view bytes) = 0;
  // Ends the stream (the zstd frame) and closes the file; throws sassim::Error when that
  // fails. A file destroyed without close() is left incomplete.
  virtual void close() = 0;
  const std::filesystem::path& path() const { return path_; }

 protected:
  explicit OutputFile(std::filesystem::path path) : path_(std::move(path)) {}

 private:
  std::filesystem::path path_;
};

// Creates (or replaces) `path`. Throws sassim::Error when it cannot be opened.
std::unique_ptr<OutputFile> open_output_file(const std::filesystem::path& path,
                                             Compression compression,
                                             int zstd_level = kDefaultZstdLevel);

}  // namespace sassim::traces
