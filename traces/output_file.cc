#include "traces/output_file.h"

#include <zstd.h>

#include <cstdio>
#include <vector>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::traces {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

struct EncoderFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};

FilePtr open_for_writing(const std::filesystem::path& path) {
  FilePtr file(std::fopen(path.string().c_str(), "wb"));
  if (!file) throw Error(fmt::format("cannot write {}", path.string()));
  return file;
}

void put(std::FILE* file, const char* bytes, std::size_t n, const std::filesystem::path& path) {
  if (n != 0 && std::fwrite(bytes, 1, n, file) != n) {
    throw Error(fmt::format("cannot write {} (disk full?)", path.string()));
  }
}

void finish(FilePtr& file, const std::filesystem::path& path) {
  if (!file) return;
  const bool ok = std::fclose(file.release()) == 0;
  if (!ok) throw Error(fmt::format("cannot write {}", path.string()));
}

class PlainOutputFile final : public OutputFile {
 public:
  explicit PlainOutputFile(const std::filesystem::path& path)
      : OutputFile(path), file_(open_for_writing(path)) {}

  void write(std::string_view bytes) override {
    put(file_.get(), bytes.data(), bytes.size(), path());
  }
  void close() override { finish(file_, path()); }

 private:
  FilePtr file_;
};

class ZstdOutputFile final : public OutputFile {
 public:
  ZstdOutputFile(const std::filesystem::path& path, int level)
      : OutputFile(path), file_(open_for_writing(path)), stream_(ZSTD_createCCtx()) {
    if (!stream_) throw Error(fmt::format("{}: cannot start the zstd encoder", path.string()));
    // The checksum lets the reader tell corrupt data from a valid trace.
    check(ZSTD_CCtx_setParameter(stream_.get(), ZSTD_c_compressionLevel, level));
    check(ZSTD_CCtx_setParameter(stream_.get(), ZSTD_c_checksumFlag, 1));
  }
  void write(std::string_view bytes) override {
    ZSTD_inBuffer input{bytes.data(), bytes.size(), 0};
    while (input.pos < input.size) compress(input, ZSTD_e_continue);
  }

  void close() override {
    if (!file_) return;
    ZSTD_inBuffer input{nullptr, 0, 0};
    while (compress(input, ZSTD_e_end) != 0) {
    }
    finish(file_, path());
  }

 private:
  // One call of the encoder; writes what it produced. Returns what is left to flush.
  std::size_t compress(ZSTD_inBuffer& input, ZSTD_EndDirective mode) {
    ZSTD_outBuffer output{block_.data(), block_.size(), 0};
    const std::size_t left = check(ZSTD_compressStream2(stream_.get(), &output, &input, mode));
    put(file_.get(), block_.data(), output.pos, path());
    return left;
  }

  std::size_t check(std::size_t ret) const {
    if (ZSTD_isError(ret) != 0) {
      throw Error(
          fmt::format("{}: zstd compression failed ({})", path().string(), ZSTD_getErrorName(ret)));
    }
    return ret;
  }

  FilePtr file_;
  std::unique_ptr<ZSTD_CCtx, EncoderFree> stream_;
  std::vector<char> block_ = std::vector<char>(ZSTD_CStreamOutSize());
};

}  // namespace

std::string_view compression_suffix(Compression compression) {
  return compression == Compression::kZstd ? ".zst" : "";
}

std::unique_ptr<OutputFile> open_output_file(const std::filesystem::path& path,
                                             Compression compression, int zstd_level) {
  if (compression == Compression::kZstd) return std::make_unique<ZstdOutputFile>(path, zstd_level);
  return std::make_unique<PlainOutputFile>(path);
}

}  // namespace sassim::traces
