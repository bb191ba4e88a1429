#pragma once
// A ScratchDir named after the running GoogleTest test: temp/sassim_<prefix><test>_<pid>.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/scratch_dir.h"

namespace sassim::test_support {

class TestScratchDir : public ScratchDir {
 public:
  explicit TestScratchDir(const std::string& prefix)
      : ScratchDir(prefix + ::testing::UnitTest::GetInstance()->current_test_info()->name()) {}
};

}  // namespace sassim::test_support
