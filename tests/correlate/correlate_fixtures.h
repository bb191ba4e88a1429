#pragma once
// Test helpers: a scratch folder per test, files written into it, the bundled data.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "ground/error.h"
#include "tests/support/scratch_dir.h"

namespace sassim::correlate::testing {

inline std::filesystem::path hw_data(const std::string& relative) {
  return std::filesystem::path(SASSIM_TEST_DATA_DIR) / "hw" / relative;
}

inline constexpr const char* kNsightCsv =
    "gtx1080-microgpusim/profile/tests/nsight_vectoradd_100_32_metrics_all.csv";
inline constexpr const char* kNvprofMetrics =
    "gtx1080-microgpusim/profile/tests/nvprof_vectoradd_100_32_metrics_all.txt";
inline constexpr const char* kNvprofLog =
    "gtx1080-microgpusim/test-apps/vectoradd/traces/nvprof.log";

// A fresh folder named after the running test, removed when the fixture ends.
class ScratchDir : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = test_support::scratch_path(std::string("correlate_") + info->test_suite_name() + "_" +
                                      info->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Writes `content` to dir/name and returns the path as a string.
  std::string write(const std::string& name, const std::string& content) const {
    const auto path = dir_ / name;
    std::ofstream(path, std::ios::binary) << content;
    return path.string();
  }

  static std::string read(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
  }

  std::filesystem::path dir_;
};

// The message of the sassim::Error that `f` throws ("" when it throws none).
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace sassim::correlate::testing
