#pragma once
// File operations that survive a crash or a kill at any point: atomic replacement
// (temp file, fsync, rename, fsync of the folder), folder locks (flock), and
// uniquely named, locked temp folders whose lock tells a live one from a stale one.
#include <filesystem>
#include <optional>
#include <string>

namespace sassim::sweep {

// Writes `content` to `path` atomically: a reader sees the old file or the whole
// new one, never a part. Throws sassim::Error naming the path.
void write_file_durably(const std::filesystem::path& path, const std::string& content);

// Flushes a file or a folder (its entries) to disk. Throws sassim::Error.
void fsync_path(const std::filesystem::path& path);

// The file's content, or nothing when it does not exist or cannot be read.
std::optional<std::string> read_text_file(const std::filesystem::path& path);

// An exclusive flock on a file or folder, held for the object's lifetime and released
// by the kernel when the process dies.
class PathLock {
 public:
  // Takes the lock without waiting; returns nothing when another process holds it.
  // Throws sassim::Error when the path cannot be opened.
  static std::optional<PathLock> try_lock(const std::filesystem::path& path);
  PathLock(PathLock&& other) noexcept;
  PathLock& operator=(PathLock&& other) noexcept;
  PathLock(const PathLock&) = delete;
  PathLock& operator=(const PathLock&) = delete;
  ~PathLock();

 private:
  explicit PathLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// A new folder `<root>/<prefix><unique suffix>`, created and locked. The lock lasts as
// long as the object (the folder itself stays); a folder under `root` whose lock is
// free belongs to a process that died.
struct LockedTempDir {
  std::filesystem::path path;
  PathLock lock;
};
LockedTempDir make_locked_temp_dir(const std::filesystem::path& root, const std::string& prefix);

// Removes the folders under `root` that no live process holds locked; returns how many.
std::size_t remove_stale_temp_dirs(const std::filesystem::path& root);

// Renames folder `from` to `to` unless `to` already exists (then returns false and
// leaves both). Flushes the parent folders. Throws sassim::Error on other failures.
bool rename_dir_no_replace(const std::filesystem::path& from, const std::filesystem::path& to);

}  // namespace sassim::sweep
