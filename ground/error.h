#pragma once
// The one exception type of sassim: a user-facing error (bad input, bad config,
// impossible state). Its message is complete and printed as is by the CLI.
#include <stdexcept>
#include <string>

namespace sassim {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// A command line that names no valid command or option: the CLI exits 2, not 1.
class UsageError : public Error {
 public:
  using Error::Error;
};

}  // namespace sassim
