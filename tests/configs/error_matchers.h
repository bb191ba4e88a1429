#pragma once
// Helpers for the config tests: the message a call throws, and the fixture folder.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "ground/error.h"

namespace sassim::config::testing {

// The sassim::Error message `call` throws; a test failure (and "") when it throws nothing.
template <typename Call>
std::string error_of(Call&& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a sassim::Error, nothing was thrown";
  return "";
}

inline std::string fixture(const std::string& name) {
  return (std::filesystem::path(SASSIM_TEST_DATA_DIR) / "configs" / name).string();
}

}  // namespace sassim::config::testing
