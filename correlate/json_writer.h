#pragma once
// A small streaming JSON writer with indentation. Non-finite numbers become null.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ground/json_quote.h"

namespace sassim::correlate {

using sassim::json_quote;  // ground/json_quote.h

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(double number);
  JsonWriter& value(std::uint64_t number);
  JsonWriter& value(bool flag);
  JsonWriter& null();
  // The document; every object and array must be closed.
  const std::string& str() const { return out_; }

 private:
  void before_value();
  void newline();
  std::string out_;
  std::vector<bool> empty_;  // per open container: nothing written in it yet
  bool after_key_ = false;
};

}  // namespace sassim::correlate
