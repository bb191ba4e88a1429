#pragma once
// Helpers of the sweep tests: a private temp folder, running the sassim binary,
// reading back the merged table and a run's markers.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sweep/capture.h"
#include "tests/support/scratch_dir.h"

namespace sassim::sweep::test {

namespace fs = std::filesystem;

inline fs::path repo_path(const std::string& relative) {
  return fs::path(SASSIM_SOURCE_DIR) / relative;
}
inline fs::path sweep_data(const std::string& name) {
  return fs::path(SASSIM_TEST_DATA_DIR) / "sweeps" / name;
}

inline const char* kVectorAdd =
    "traces/reference/gtx1080-microgpusim/test-apps/vectoradd/traces/vectoradd-100-32-trace";
inline const char* kMatrixMul =
    "traces/reference/gtx1080-microgpusim/test-apps/matrixmul/traces/matrixmul-32-32-trace";

// A fresh folder, removed with everything in it at the end of the test.
class TempDir : public test_support::ScratchDir {
 public:
  explicit TempDir(const std::string& name) : ScratchDir("sweep_" + name) {}
};

inline void write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

inline std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs `sassim ARGS...` and waits for it.
inline Captured sassim(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {SASSIM_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return capture(argv);
}

// Identity of a file on disk: a rewritten or replaced file changes it.
struct FileStamp {
  ino_t inode = 0;
  long long mtime_ns = 0;
  bool operator==(const FileStamp&) const = default;
};
inline FileStamp stamp(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {st.st_ino, static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec};
}

// The ids of the folders under runs/ that hold a completion marker.
inline std::vector<std::string> finished_ids(const fs::path& out) {
  std::vector<std::string> ids;
  std::error_code ec;
  for (fs::directory_iterator it(out / "runs", ec), end; !ec && it != end; it.increment(ec)) {
    if (fs::exists(it->path() / "COMPLETE")) ids.push_back(it->path().filename().string());
  }
  return ids;
}

// A CSV file as rows of cells (no quoted commas in the test data; quotes are kept).
inline std::vector<std::vector<std::string>> read_csv(const fs::path& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(read_file(path));
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = line.find(',', start);
      cells.push_back(line.substr(start, comma == std::string::npos ? comma : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    rows.push_back(std::move(cells));
  }
  return rows;
}

}  // namespace sassim::sweep::test
