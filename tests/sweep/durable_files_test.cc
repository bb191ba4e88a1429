// The crash-safe file operations the sweep's resume rules rest on.
#include <gtest/gtest.h>

#include "sweep/durable_files.h"
#include "sweep_test_support.h"

namespace sassim::sweep::test {
namespace {

TEST(DurableFiles, WriteReplacesTheWholeFileAndLeavesNoTemp) {
  TempDir dir("durable_write");
  write_file_durably(dir.path() / "marker", "first\n");
  write_file_durably(dir.path() / "marker", "second\n");
  EXPECT_EQ(read_text_file(dir.path() / "marker"), "second\n");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 1u);
  EXPECT_FALSE(read_text_file(dir.path() / "absent").has_value());
}

TEST(DurableFiles, OnlyTempFoldersNoProcessHoldsAreStale) {
  TempDir dir("durable_stale");
  const fs::path root = dir.path() / ".tmp";
  std::optional<LockedTempDir> live = make_locked_temp_dir(root, "abc.");
  const LockedTempDir other = make_locked_temp_dir(root, "abc.");
  EXPECT_NE(live->path, other.path);
  EXPECT_EQ(live->path.filename().string().rfind("abc.", 0), 0u);
  fs::create_directories(root / "dead");
  EXPECT_FALSE(PathLock::try_lock(live->path).has_value());  // held
  EXPECT_EQ(remove_stale_temp_dirs(root), 1u);
  EXPECT_FALSE(fs::exists(root / "dead"));
  EXPECT_TRUE(fs::exists(live->path));
  const fs::path released = live->path;
  live.reset();
  EXPECT_EQ(remove_stale_temp_dirs(root), 1u);
  EXPECT_FALSE(fs::exists(released));
  EXPECT_TRUE(fs::exists(other.path));
}

TEST(DurableFiles, RenameNeverReplacesAFolder) {
  TempDir dir("durable_rename");
  fs::create_directories(dir.path() / "a");
  write_file(dir.path() / "a/x", "new");
  fs::create_directories(dir.path() / "b");
  write_file(dir.path() / "b/x", "old");
  EXPECT_FALSE(rename_dir_no_replace(dir.path() / "a", dir.path() / "b"));
  EXPECT_EQ(read_file(dir.path() / "b/x"), "old");
  EXPECT_TRUE(fs::exists(dir.path() / "a/x"));
  EXPECT_TRUE(rename_dir_no_replace(dir.path() / "a", dir.path() / "c"));
  EXPECT_EQ(read_file(dir.path() / "c/x"), "new");
  EXPECT_FALSE(fs::exists(dir.path() / "a"));
}

}  // namespace
}  // namespace sassim::sweep::test
