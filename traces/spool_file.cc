#include "traces/spool_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "ground/error.h"
#include "traces/chunk_codec.h"

namespace sassim::traces {

SpoolFile::SpoolFile(std::filesystem::path dir) : dir_(std::move(dir)) {
  if (dir_.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    dir_ = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  }
  name_ = fmt::format("trace spool in {}", dir_.string());
}

SpoolFile::~SpoolFile() {
  if (fd_ >= 0) ::close(fd_);
}

void SpoolFile::fail(const std::string& what, int error) const {
  throw Error(fmt::format("{}: {}: {}", name_, what, std::strerror(error)));
}

void SpoolFile::open() {
#ifdef O_TMPFILE
  fd_ = ::open(dir_.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ >= 0) return;
  // Only where the file system lacks O_TMPFILE try a named file; report other errors.
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
    fail("cannot create the temporary file", errno);
  }
#endif
  std::string path = (dir_ / "sassim-spool-XXXXXX").string();
  fd_ = ::mkstemp(path.data());
  if (fd_ < 0) fail("cannot create the temporary file", errno);
  name_ = fmt::format("trace spool {}", path);
  ::unlink(path.c_str());
}

unsigned SpoolFile::size_class(std::size_t size) {
  const std::size_t slots = std::max<std::size_t>(1, (size + kChunkBytes - 1) / kChunkBytes);
  return static_cast<unsigned>(std::bit_width(std::bit_ceil(slots)) - 1);
}

std::uint64_t SpoolFile::write(std::span<const std::byte> bytes) {
  if (fd_ < 0) open();
  const unsigned c = size_class(bytes.size());
  if (free_.size() <= c) free_.resize(c + 1);
  std::uint64_t offset = 0;
  if (free_[c].empty()) {
    offset = end_;
    end_ += std::uint64_t{kChunkBytes} << c;
  } else {
    offset = free_[c].back();
    free_[c].pop_back();
  }
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n =
        ::pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      fail(fmt::format("cannot write {} bytes at offset {}", bytes.size(), offset),
           n < 0 ? errno : ENOSPC);
    }
    done += static_cast<std::size_t>(n);
  }
  used_ += std::uint64_t{kChunkBytes} << c;
  return offset;
}

void SpoolFile::take(std::uint64_t offset, std::size_t size, std::vector<std::byte>& out) {
  out.resize(size);
  for (std::size_t done = 0; done < size;) {
    const ssize_t n =
        ::pread(fd_, out.data() + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      fail(fmt::format("cannot read {} bytes at offset {}", size, offset), n < 0 ? errno : EIO);
    }
    done += static_cast<std::size_t>(n);
  }
  free(offset, size);
}

void SpoolFile::free(std::uint64_t offset, std::size_t size) {
  const unsigned c = size_class(size);
  free_[c].push_back(offset);
  used_ -= std::uint64_t{kChunkBytes} << c;
}

}  // namespace sassim::traces
