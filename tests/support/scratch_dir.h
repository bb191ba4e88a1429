#pragma once
// A fresh folder for one test, unique to the process (several test runs may share the
// machine's temporary folder), removed with everything in it at the end.
#include <unistd.h>

#include <filesystem>
#include <string>

namespace sassim::test_support {

// temp/sassim_<name>_<pid>: the same name in two processes gives two folders.
inline std::filesystem::path scratch_path(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("sassim_" + name + "_" + std::to_string(::getpid()));
}

class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name) : path_(scratch_path(name)) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace sassim::test_support
