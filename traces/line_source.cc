#include "traces/line_source.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "ground/error.h"

namespace sassim::traces {

bool LineSource::next(std::string_view& line) {
  if (replay_) {
    replay_ = false;
    line = last_;
    return true;
  }
  for (;;) {
    const char* start = buffer_.get() + begin_;
    const std::size_t available = end_ - begin_;
    if (scanned_ < available) {
      const void* newline = std::memchr(start + scanned_, '\n', available - scanned_);
      if (newline != nullptr) {
        auto length = static_cast<std::size_t>(static_cast<const char*>(newline) - start);
        line = {start, length};
        begin_ += length + 1;
        scanned_ = 0;
        break;
      }
      scanned_ = available;
    }
    if (eof_) {
      if (available == 0) return false;
      line = {start, available};  // last line without a final newline
      begin_ = end_;
      scanned_ = 0;
      break;
    }
    if (available > kMaxLineBytes) {
      throw Error(
          fmt::format("{}:{}: a line longer than {} MiB: expected the text lines of a "
                      "trace (is the file damaged, or not a trace?)",
                      name_, line_number_ + 1, kMaxLineBytes >> 20));
    }
    // Keep the partial line, make room, read the next block.
    if (begin_ > 0) {
      std::memmove(buffer_.get(), start, available);
      begin_ = 0;
      end_ = available;
    }
    if (capacity_ - end_ < kBlockBytes / 2) {
      const std::size_t capacity = std::max(kBlockBytes, capacity_ * 2);
      std::unique_ptr<char[]> grown(new char[capacity]);
      if (end_ > 0) std::memcpy(grown.get(), buffer_.get(), end_);
      buffer_ = std::move(grown);
      capacity_ = capacity;
    }
    std::size_t n = read(buffer_.get() + end_, capacity_ - end_);
    if (n == 0) eof_ = true;
    end_ += n;
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  last_ = line;
  ++line_number_;
  return true;
}

namespace {

class MemoryLineSource final : public LineSource {
 public:
  MemoryLineSource(std::string text, std::string name)
      : LineSource(std::move(name)), text_(std::move(text)) {}

 private:
  std::size_t read(char* out, std::size_t capacity) override {
    std::size_t n = std::min(capacity, text_.size() - offset_);
    std::memcpy(out, text_.data() + offset_, n);
    offset_ += n;
    return n;
  }

  std::string text_;
  std::size_t offset_ = 0;
};

}  // namespace

std::unique_ptr<LineSource> memory_line_source(std::string text, std::string name) {
  return std::make_unique<MemoryLineSource>(std::move(text), std::move(name));
}

}  // namespace sassim::traces
