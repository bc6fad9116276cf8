// SPDX-License-Identifier: Apache-2.0
// A large text file written fast (the Chrome timeline's millions of events): text is appended to
// one buffer with the project's own integer and fixed-point formatting (no printf per field) and
// leaves in large blocks, gzip-compressed when the path ends in .gz, else as is. Compression is
// ISA-L's igzip at level 1 (libisal-dev): one standard gzip member, as zlib writes, at several
// times zlib's speed, which is what a timeline of a message-bound run pays for most. The same
// text gives the same bytes on every run of one machine (ISA-L chooses its SIMD code by CPU, so
// another CPU may compress to other bytes; the text inside is always the same).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace simmpi::runtime {

class TextOutput {
 public:
  TextOutput();
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
  void integer(std::int64_t v) {
    char* p = room(kMaxNumber);
    used_ += static_cast<std::size_t>(write_integer(p, v) - p);
  }
  // `ps` picoseconds as microseconds with six decimals ("12.000345"): every picosecond kept.
  void micros(std::int64_t ps) {
    char* p = room(kMaxNumber);
    used_ += static_cast<std::size_t>(write_micros(p, ps) - p);
  }
  // Closes the file; false (with `error` set) when any write failed.
  bool close(std::string* error);

 private:
  static constexpr std::size_t kBlock = 1 << 20;
  static constexpr std::size_t kMaxNumber = 32;  // the longest integer or micros() text

  // Where the next `n` bytes go (n <= kMaxNumber), flushing first when the block is too full.
  char* room(std::size_t n) {
    if (kBlock - used_ < n) flush_block();
    return buffer_.data() + used_;
  }
  static char* write_integer(char* p, std::int64_t v);
  static char* write_micros(char* p, std::int64_t ps);
  void flush_block();
  void emit(const char* data, std::size_t n);  // to the file, compressed or not

  struct Gzip;  // igzip's stream state, when compressing
  std::vector<char> buffer_ = std::vector<char>(kBlock);
  std::size_t used_ = 0;
  std::FILE* file_ = nullptr;
  std::unique_ptr<Gzip> gzip_;
  std::vector<unsigned char> zipped_;
  bool failed_ = false;
};

}  // namespace simmpi::runtime
