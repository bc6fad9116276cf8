// SPDX-License-Identifier: Apache-2.0
// A large text file written fast (the Chrome timeline's millions of events): text is appended to
// one buffer with the project's own integer and fixed-point formatting (no printf per field) and
// leaves in large blocks, gzip-compressed through zlib's deflate at level 1 when the path ends in
// .gz, else as is. The same text gives the same bytes on every run.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

struct z_stream_s;

namespace simmpi::runtime {

class TextOutput {
 public:
  // Opens `path`; returns false with `error` set (errno's text) when it cannot.
  bool open(const std::string& path, std::string* error);
  ~TextOutput();

  void text(std::string_view s) {
    if (s.size() > kBlock - used_) flush_block();
    if (s.size() > kBlock) {
      emit(s.data(), s.size());
      return;
    }
    std::memcpy(buffer_.data() + used_, s.data(), s.size());
    used_ += s.size();
  }
  void text(char c) {
    if (used_ == kBlock) flush_block();
    buffer_[used_++] = c;
  }
  void integer(std::int64_t v);
  // `ps` picoseconds as microseconds with six decimals ("12.000345"): every picosecond kept.
  void micros(std::int64_t ps);
  // Closes the file; false (with `error` set) when any write failed.
  bool close(std::string* error);

 private:
  static constexpr std::size_t kBlock = 1 << 20;
  void flush_block();
  void emit(const char* data, std::size_t n);  // to the file, compressed or not

  std::vector<char> buffer_ = std::vector<char>(kBlock);
  std::size_t used_ = 0;
  std::FILE* file_ = nullptr;
  z_stream_s* zip_ = nullptr;  // gzip: deflate's state
  std::vector<unsigned char> zipped_;
  bool failed_ = false;
};

}  // namespace simmpi::runtime
