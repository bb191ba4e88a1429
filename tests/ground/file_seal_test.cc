// The seal of a results file: CRC-32 (the IEEE polynomial), the round trip, and the
// messages for a flipped bit, a truncation, a file without a seal.
#include "ground/file_seal.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ground/error.h"

namespace sassim {
namespace {

namespace fs = std::filesystem;

std::string message_of(const fs::path& file) {
  try {
    check_seal(file);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

class FileSeal : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("seal_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    file_ = dir_ / "r.h5";
    std::string bytes(kSealBytes, '\0');
    for (int i = 0; i < 3000; ++i) bytes.push_back(static_cast<char>(i * 7));
    write(bytes);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& bytes) {
    std::ofstream(file_, std::ios::binary).write(bytes.data(), static_cast<long>(bytes.size()));
  }
  std::string read() {
    std::ifstream in(file_, std::ios::binary);
    std::string bytes(fs::file_size(file_), '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return bytes;
  }
  fs::path dir_, file_;
};

TEST(Crc32, MatchesTheIeeeCheckValue) {
  const std::string text = "123456789";
  EXPECT_EQ(crc32({reinterpret_cast<const unsigned char*>(text.data()), text.size()}), 0xcbf43926u);
  EXPECT_EQ(crc32({}), 0u);
  // Chained over pieces as over the whole.
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  EXPECT_EQ(crc32({p + 4, 5}, crc32({p, 4})), 0xcbf43926u);
}

TEST_F(FileSeal, ASealedFilePassesAndStatesItsSizeAndCrc) {
  write_seal(file_);
  EXPECT_EQ(message_of(file_), "");
  const std::string bytes = read();
  const auto* body = reinterpret_cast<const unsigned char*>(bytes.data()) + kSealBytes;
  EXPECT_EQ(bytes.substr(0, bytes.find('\n') + 1),
            fmt::format("sassim-seal v1 bytes=3000 crc32={:08x}\n", crc32({body, 3000})));
  EXPECT_EQ(bytes.size(), kSealBytes + 3000);
}

TEST_F(FileSeal, AFlippedBitIsDamage) {
  write_seal(file_);
  std::string bytes = read();
  bytes[kSealBytes + 1234] ^= 1;
  write(bytes);
  EXPECT_THAT(message_of(file_),
              ::testing::MatchesRegex(".*r.h5: damaged: CRC-32 [0-9a-f]{8} of its contents, "
                                      "[0-9a-f]{8} sealed"));
}

TEST_F(FileSeal, ACutFileIsTruncated) {
  write_seal(file_);
  write(read().substr(0, kSealBytes + 1000));
  EXPECT_EQ(message_of(file_),
            (file_.string() + ": truncated or damaged: 1000 bytes after the seal, 3000 sealed"));
}

TEST_F(FileSeal, AFileWithoutASealIsRefused) {
  EXPECT_EQ(message_of(file_).substr(0, file_.string().size() + 38),
            file_.string() + ": no seal in its first 512 bytes: not ");
  EXPECT_EQ(message_of(dir_ / "none.h5"), (dir_ / "none.h5").string() + ": cannot read the file");
}

TEST_F(FileSeal, TheSealNeedsItsBytesFree) {
  std::string bytes = read();
  bytes[3] = 'x';
  write(bytes);
  try {
    write_seal(file_);
    FAIL() << "wrote a seal over data";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no free 512 bytes at the start"), std::string::npos);
  }
}

}  // namespace
}  // namespace sassim
