// The committed SASS listings (kernels/sass/ARCH/KERNEL.sass) against the suite and
// tests/kernels/expected_sass.txt: a listing missing, stale, not disassembled with
// encodings, or without the instructions its kernel is about fails here.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/suite.h"

namespace sassim::kernels {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = SASSIM_SOURCE_DIR;
const fs::path kListings = kRoot / "kernels" / "sass";

struct Expectation {
  std::vector<std::string> archs;
  std::vector<std::string> opcodes;
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
  return parts;
}

std::map<std::string, Expectation> read_expectations() {
  std::ifstream file(kRoot / "tests" / "kernels" / "expected_sass.txt");
  EXPECT_TRUE(file) << "tests/kernels/expected_sass.txt is missing";
  std::map<std::string, Expectation> expectations;
  for (std::string line; std::getline(file, line);) {
    std::istringstream words(line.substr(0, line.find('#')));
    std::string kernel, archs;
    if (!(words >> kernel >> archs)) continue;
    Expectation& e = expectations[kernel];
    e.archs = split(archs, ',');
    for (std::string opcode; words >> opcode;) e.opcodes.push_back(opcode);
  }
  return expectations;
}

std::string read_text(const fs::path& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The mnemonics (with modifiers) of a listing's instructions, in order: the word after
// the /*ADDR*/ column and any @P predicate.
std::vector<std::string> mnemonics(const std::string& listing) {
  std::vector<std::string> result;
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string address, word;
    if (!(words >> address) || address.size() < 5 || address.rfind("/*", 0) != 0 ||
        address.substr(address.size() - 2) != "*/" || address.find("0x") != std::string::npos) {
      continue;
    }
    if (!(words >> word)) continue;
    if (word[0] == '@' && !(words >> word)) continue;
    if (!word.empty() && word.back() == ';') word.pop_back();
    result.push_back(word);
  }
  return result;
}

bool matches(const std::string& mnemonic, const std::string& opcode) {
  return mnemonic == opcode ||
         (mnemonic.size() > opcode.size() && mnemonic.compare(0, opcode.size(), opcode) == 0 &&
          mnemonic[opcode.size()] == '.');
}

TEST(SassListingsTest, EverySuiteKernelHasExpectations) {
  const auto expectations = read_expectations();
  for (const SuiteEntry& entry : read_suite(kRoot / "kernels" / "suite.txt")) {
    EXPECT_TRUE(expectations.contains(entry.kernel))
        << "suite.txt:" << entry.line << ": kernel " << entry.kernel
        << " has no line in tests/kernels/expected_sass.txt";
  }
  for (std::string_view kernel : suite_kernels()) {
    EXPECT_TRUE(expectations.contains(std::string(kernel))) << kernel;
  }
}

TEST(SassListingsTest, ListingsExistWithEncodingsAndExpectedOpcodes) {
  for (const auto& [kernel, expectation] : read_expectations()) {
    for (const std::string& arch : expectation.archs) {
      SCOPED_TRACE(arch + "/" + kernel);
      const fs::path path = kListings / arch / (kernel + ".sass");
      ASSERT_TRUE(fs::exists(path)) << path << " is missing: run scripts/disassemble-kernels.sh";
      const std::string listing = read_text(path);
      EXPECT_EQ(listing.rfind("// sassim kernel listing: " + kernel + " for " + arch + "\n", 0), 0U)
          << "the listing does not start with its header";
      const std::vector<std::string> instructions = mnemonics(listing);
      ASSERT_GT(instructions.size(), 8U) << "no instructions found";
      // nvdisasm -hex / cuobjdump -sass put each instruction's encoding beside it.
      EXPECT_NE(listing.find("/* 0x"), std::string::npos) << "the listing has no encodings";
      EXPECT_EQ(instructions.back() == "NOP" || instructions.back() == "BRA" ||
                    instructions.back() == "EXIT",
                true)
          << "the listing ends in " << instructions.back();
      for (const std::string& opcode : expectation.opcodes) {
        bool found = false;
        for (const std::string& m : instructions) found = found || matches(m, opcode);
        EXPECT_TRUE(found) << "no " << opcode << " instruction";
      }
    }
  }
}

TEST(SassListingsTest, NoListingWithoutAKernel) {
  const auto expectations = read_expectations();
  ASSERT_TRUE(fs::is_directory(kListings));
  for (const auto& file : fs::recursive_directory_iterator(kListings)) {
    if (!file.is_regular_file()) continue;
    const std::string arch = file.path().parent_path().filename().string();
    const std::string kernel = file.path().stem().string();
    if (file.path().extension() == ".const2") {
      // Constant bank 2 of a listing for `sassim capture` (docs/CAPTURE.md).
      EXPECT_TRUE(fs::exists(fs::path(file.path()).replace_extension(".sass"))) << file.path();
      continue;
    }
    ASSERT_EQ(file.path().extension(), ".sass") << file.path();
    const auto it = expectations.find(kernel);
    ASSERT_NE(it, expectations.end()) << file.path() << ": not a suite kernel (stale listing?)";
    const auto& archs = it->second.archs;
    EXPECT_NE(std::find(archs.begin(), archs.end(), arch), archs.end())
        << file.path() << ": " << kernel << " is not built for " << arch;
  }
}

TEST(SassListingsTest, MnemonicsAndMatching) {
  const std::string listing =
      "        /*0050*/               @P0 EXIT ;          /* 0x000000000000094d */\n"
      "                                                   /* 0x000fea0003800000 */\n"
      "        /*0060*/                   LDG.E.CONSTANT R2, [R2.64] ;\n"
      "        /*0070*/              @!P1 HMMA.16816.F32 R4, R8, R12, R4 ;\n";
  EXPECT_EQ(mnemonics(listing),
            (std::vector<std::string>{"EXIT", "LDG.E.CONSTANT", "HMMA.16816.F32"}));
  EXPECT_TRUE(matches("LDG.E.CONSTANT", "LDG.E"));
  EXPECT_TRUE(matches("LDG.E", "LDG.E"));
  EXPECT_FALSE(matches("LDSM.16.M88.4", "LDS"));
  EXPECT_FALSE(matches("LDG.E", "LDG.E.64"));
}

}  // namespace
}  // namespace sassim::kernels
