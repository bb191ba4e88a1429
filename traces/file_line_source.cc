// Plain, xz- and zstd-compressed trace files. The decoders run in-process (liblzma,
// libzstd) and stream: each holds one input block and its own window, never the whole file.
#include <lzma.h>
#include <zstd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "ground/error.h"
#include "traces/line_source.h"

namespace sassim::traces {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

std::size_t read_file(std::FILE* file, char* out, std::size_t capacity, const std::string& name) {
  std::size_t n = std::fread(out, 1, capacity, file);
  if (n < capacity && std::ferror(file)) {
    throw Error(name + ": read error: " + std::strerror(errno));
  }
  return n;
}

class PlainFileLineSource final : public LineSource {
 public:
  PlainFileLineSource(FilePtr file, std::string name)
      : LineSource(std::move(name)), file_(std::move(file)) {}

 private:
  std::size_t read(char* out, std::size_t capacity) override {
    return read_file(file_.get(), out, capacity, name());
  }
  FilePtr file_;
};

class XzFileLineSource final : public LineSource {
 public:
  XzFileLineSource(FilePtr file, std::string name)
      : LineSource(std::move(name)), file_(std::move(file)) {
    if (lzma_stream_decoder(&stream_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
      throw Error(this->name() + ": cannot start the xz decoder");
    }
  }
  ~XzFileLineSource() override { lzma_end(&stream_); }

 private:
  std::size_t read(char* out, std::size_t capacity) override {
    if (finished_) return 0;
    stream_.next_out = reinterpret_cast<std::uint8_t*>(out);
    stream_.avail_out = capacity;
    while (stream_.avail_out > 0) {
      if (stream_.avail_in == 0 && !input_done_) {
        std::size_t n = read_file(file_.get(), input_.data(), input_.size(), name());
        stream_.next_in = reinterpret_cast<const std::uint8_t*>(input_.data());
        stream_.avail_in = n;
        input_done_ = n == 0;
      }
      lzma_ret ret = lzma_code(&stream_, input_done_ ? LZMA_FINISH : LZMA_RUN);
      if (ret == LZMA_STREAM_END) {
        finished_ = true;
        break;
      }
      if (ret != LZMA_OK) throw Error(name() + ": " + describe(ret));
    }
    return capacity - stream_.avail_out;
  }

  static std::string describe(lzma_ret ret) {
    switch (ret) {
      case LZMA_BUF_ERROR:
        return "xz data ends early (truncated .xz file)";
      case LZMA_DATA_ERROR:
        return "corrupt xz data";
      case LZMA_FORMAT_ERROR:
        return "not in the xz format";
      case LZMA_MEM_ERROR:
        return "out of memory while decompressing xz data";
      default:
        return "xz decompression failed (liblzma error " + std::to_string(ret) + ")";
    }
  }

  FilePtr file_;
  lzma_stream stream_ = LZMA_STREAM_INIT;
  std::array<char, 1 << 16> input_{};
  bool input_done_ = false;
  bool finished_ = false;
};

// Decodes zstd frames (one or more, as `zstd` and `sassim capture` write them).
class ZstdFileLineSource final : public LineSource {
 public:
  ZstdFileLineSource(FilePtr file, std::string name)
      : LineSource(std::move(name)), file_(std::move(file)), stream_(ZSTD_createDStream()) {
    if (stream_ == nullptr) throw Error(this->name() + ": cannot start the zstd decoder");
  }
  ~ZstdFileLineSource() override { ZSTD_freeDStream(stream_); }

 private:
  std::size_t read(char* out, std::size_t capacity) override {
    if (finished_) return 0;
    ZSTD_outBuffer output{out, capacity, 0};
    while (output.pos < output.size) {
      if (input_.pos == input_.size && !input_done_) {
        std::size_t n = read_file(file_.get(), block_.data(), block_.size(), name());
        input_ = ZSTD_inBuffer{block_.data(), n, 0};
        input_done_ = n == 0;
      }
      const std::size_t consumed = input_.pos;
      const std::size_t produced = output.pos;
      const std::size_t ret = ZSTD_decompressStream(stream_, &output, &input_);
      if (ZSTD_isError(ret) != 0) {
        throw Error(name() + ": corrupt zstd data (" + ZSTD_getErrorName(ret) + ")");
      }
      // 0: a frame ended and is flushed. Otherwise a frame is open once it took input.
      if (ret == 0) {
        in_frame_ = false;
      } else if (input_.pos != consumed) {
        in_frame_ = true;
      }
      if (input_done_ && output.pos == produced && input_.pos == input_.size) {
        if (in_frame_) {
          throw Error(name() +
                      ": zstd data ends early (truncated .zst file: expected the rest of "
                      "the frame)");
        }
        finished_ = true;
        break;
      }
    }
    return output.pos;
  }

  FilePtr file_;
  ZSTD_DStream* stream_;
  std::array<char, 1 << 17> block_{};
  ZSTD_inBuffer input_{nullptr, 0, 0};
  bool input_done_ = false;
  bool in_frame_ = false;
  bool finished_ = false;
};

enum class Format { kPlain, kXz, kZstd };

// By magic bytes, not by name: a kernelslist.g may name compressed files without suffix.
Format detect_format(std::FILE* file) {
  static constexpr unsigned char kXz[] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
  static constexpr unsigned char kZstd[] = {0x28, 0xB5, 0x2F, 0xFD};
  unsigned char head[sizeof kXz] = {};
  std::size_t n = std::fread(head, 1, sizeof head, file);
  std::rewind(file);
  if (n >= sizeof kXz && std::memcmp(head, kXz, sizeof kXz) == 0) return Format::kXz;
  if (n >= sizeof kZstd && std::memcmp(head, kZstd, sizeof kZstd) == 0) return Format::kZstd;
  return Format::kPlain;
}

}  // namespace

std::unique_ptr<LineSource> open_line_source(const std::filesystem::path& path) {
  std::string name = path.string();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw Error(name + ": is a folder, expected a trace file");
  }
  FilePtr file(std::fopen(name.c_str(), "rb"));
  if (!file) throw Error("cannot open trace file " + name + ": " + std::strerror(errno));
  switch (detect_format(file.get())) {
    case Format::kXz:
      return std::make_unique<XzFileLineSource>(std::move(file), std::move(name));
    case Format::kZstd:
      return std::make_unique<ZstdFileLineSource>(std::move(file), std::move(name));
    case Format::kPlain:
      break;
  }
  return std::make_unique<PlainFileLineSource>(std::move(file), std::move(name));
}

}  // namespace sassim::traces
