#pragma once
// A JSON string literal of any text: quotes, backslashes and control characters escaped
// (RFC 8259), other bytes as they are (UTF-8 passes through).
#include <string>
#include <string_view>

namespace sassim {

std::string json_quote(std::string_view text);

}  // namespace sassim
