#include "sweep/durable_files.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::sweep {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& what, const fs::path& path) {
  throw Error(fmt::format("{} '{}': {}", what, path.string(), std::strerror(errno)));
}

void write_all(int fd, const std::string& content, const fs::path& path) {
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("cannot write", path);
    written += static_cast<std::size_t>(n);
  }
}

fs::path parent_of(const fs::path& path) {
  fs::path parent = path.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

}  // namespace

void fsync_path(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open", path);
  const int rc = ::fsync(fd);
  const int saved = errno;
  ::close(fd);
  errno = saved;
  if (rc != 0) fail("cannot flush", path);
}

void write_file_durably(const fs::path& path, const std::string& content) {
  fs::path temp = path;
  temp += fmt::format(".tmp.{}", ::getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot create", temp);
  try {
    write_all(fd, content, temp);
    if (::fsync(fd) != 0) fail("cannot flush", temp);
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temp.c_str());
    errno = saved;
    fail("cannot rename into place", path);
  }
  fsync_path(parent_of(path));
}

std::optional<std::string> read_text_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

std::optional<PathLock> PathLock::try_lock(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open", path);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int saved = errno;
    ::close(fd);
    if (saved == EWOULDBLOCK) return std::nullopt;
    errno = saved;
    fail("cannot lock", path);
  }
  return PathLock(fd);
}

PathLock::PathLock(PathLock&& other) noexcept : fd_(other.fd_) {
  other.fd_ = -1;
}

PathLock& PathLock::operator=(PathLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

PathLock::~PathLock() {
  if (fd_ >= 0) ::close(fd_);
}

LockedTempDir make_locked_temp_dir(const fs::path& root, const std::string& prefix) {
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec) throw Error(fmt::format("cannot create folder '{}': {}", root.string(), ec.message()));
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string pattern = (root / (prefix + "XXXXXX")).string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data()) == nullptr) fail("cannot create a temp folder in", root);
    const fs::path path(buffer.data());
    std::optional<PathLock> lock;
    try {
      lock = PathLock::try_lock(path);
    } catch (const Error&) {
      continue;  // removed by a stale-folder sweep before we could lock it
    }
    if (!lock) continue;  // locked by a stale-folder sweep, which removes it
    // The folder may have been removed between mkdtemp and the lock.
    struct stat by_path {};
    if (::stat(path.c_str(), &by_path) != 0) continue;
    ::chmod(path.c_str(), 0755);
    return {path, std::move(*lock)};
  }
  throw Error(fmt::format("cannot create a locked temp folder in '{}'", root.string()));
}

std::size_t remove_stale_temp_dirs(const fs::path& root) {
  std::size_t removed = 0;
  std::error_code ec;
  std::vector<fs::path> entries;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    entries.push_back(it->path());
  }
  for (const fs::path& entry : entries) {
    std::optional<PathLock> lock;
    try {
      lock = PathLock::try_lock(entry);
    } catch (const Error&) {
      continue;  // gone already
    }
    if (!lock) continue;  // a live process works in it
    fs::remove_all(entry, ec);
    if (!ec) ++removed;
  }
  return removed;
}

bool rename_dir_no_replace(const fs::path& from, const fs::path& to) {
  fsync_path(from);
  int rc = ::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE);
  if (rc != 0 && (errno == EINVAL || errno == ENOSYS)) {
    // No RENAME_NOREPLACE on this filesystem (NFS): rename() onto a non-empty
    // folder fails too, and a run folder is never empty.
    std::error_code ec;
    if (fs::exists(to, ec)) {
      errno = EEXIST;
    } else {
      rc = ::rename(from.c_str(), to.c_str());
    }
  }
  if (rc != 0) {
    if (errno == EEXIST || errno == ENOTEMPTY) return false;
    fail(fmt::format("cannot rename '{}' to", from.string()), to);
  }
  fsync_path(parent_of(to));
  if (parent_of(from) != parent_of(to)) fsync_path(parent_of(from));
  return true;
}

}  // namespace sassim::sweep
