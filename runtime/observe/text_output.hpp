// SPDX-License-Identifier: Apache-2.0
// A large text file written fast (the Chrome timeline's millions of events): text is appended to
// one buffer with the project's own integer and decimal formatting (no printf per field) and
// leaves in large blocks, gzip-compressed when the path ends in .gz, else as is.
//
// Compression is the writer's own (FixedDeflate): the text comes in units (a timeline's events),
// each begun with marks where a similar unit began (the lane's last event of the same kind, the
// last of the kind on any lane), and goes out as a copy of the one that matches longest, the
// numbers that differ as literals: after a difference the copy goes on past the number in both
// (a timeline's event is usually its lane's last one of its kind but for its times). A copy
// that reaches the end of a unit goes on into the next one when the text there goes on the same
// way. General compressors spent most of a busy timeline's cost hashing every byte to find
// repeats that the writer knows already (ISA-L's igzip at level 1: ~5 instructions a byte, more
// than formatting the text). The same text and marks give the same bytes on every machine.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/observe/fixed_deflate.hpp"

namespace simmpi::runtime {

class TextOutput {
 public:
  // Where a unit began (see begin()).
  struct Mark {
    std::uint64_t at = 0;  // never: positions start far beyond the window from 0
  };

  TextOutput();
  // Opens `path`; returns false with `error` set (errno's text) when it cannot.
  bool open(const std::string& path, std::string* error);
  ~TextOutput();

  void text(std::string_view s) {
    if (s.size() > kBlock - used_) flush_block();
    if (s.size() > kBlock - kWindow) return write_long(s);
    std::memcpy(buffer_.data() + used_, s.data(), s.size());
    used_ += s.size();
  }
  void text(char c) {
    if (used_ == kBlock) flush_block();
    buffer_[used_++] = c;
  }
  // The text until end() is one unit, compressed as a copy of what follows `near` or `far`
  // (where earlier units began), whichever matches longer; both then mark this one.
  void begin(Mark& near, Mark& far) {
    if (!deflate_) return;
    begin_unit(near, far);
  }
  void end() {
    if (deflate_) encode(used_);
  }
  void integer(std::int64_t v) {
    char* p = room(kMaxNumber);
    const std::size_t n = static_cast<std::size_t>(format_integer(p, v) - p);
    used_ += n;
  }
  // `ps` picoseconds as microseconds, every picosecond kept and no trailing zero ("12.000345",
  // "12.5", "12").
  void micros(std::int64_t ps) {
    char* p = room(kMaxNumber);
    const std::size_t n = static_cast<std::size_t>(format_micros(p, ps) - p);
    used_ += n;
  }
  // Closes the file; false (with `error` set) when any write failed.
  bool close(std::string* error);

  // integer() and micros() into `p`, which has room for kMaxNumber; return the end.
  static constexpr std::size_t kMaxNumber = 32;
  static char* format_integer(char* p, std::int64_t v);
  static char* format_micros(char* p, std::int64_t ps);

 private:
  static constexpr std::size_t kBlock = 1 << 20;
  static constexpr std::size_t kWindow = FixedDeflate::kWindow;
  // The position of the first byte: a Mark never written (at 0) is out of the window.
  static constexpr std::uint64_t kFirstPosition = 1 << 20;

  // Where the next `n` bytes go (n <= kMaxNumber), flushing first when the block is too full.
  char* room(std::size_t n) {
    if (kBlock - used_ < n) flush_block();
    return buffer_.data() + used_;
  }
  void write_long(std::string_view s);
  void begin_unit(Mark& near, Mark& far);
  // Compresses the text up to buffer_[to].
  void encode(std::size_t to);
  void end_copy();  // writes out the copy in progress
  std::uint64_t position(std::size_t offset) const { return base_ + offset; }
  void flush_block();
  void write_file(const void* data, std::size_t n);

  // The text not yet written out, after (when compressing) the window's worth of text before
  // it that copies read, and 8 bytes to spare (words are compared).
  std::vector<char> buffer_ = std::vector<char>(kBlock + 8);
  std::size_t used_ = 0;
  std::uint64_t base_ = kFirstPosition;  // the position of buffer_[0]
  std::FILE* file_ = nullptr;
  std::unique_ptr<FixedDeflate> deflate_;
  std::uint32_t crc_ = 0;  // of the text up to buffer_[crc_from_]
  std::size_t crc_from_ = 0;
  std::size_t encoded_ = 0;           // buffer_[encoded_] is the first byte not compressed
  std::uint64_t reference_ = 0;       // the position the text at encoded_ is compared with; 0: none
  std::uint64_t candidates_[3] = {};  // a unit's references, until the first encode() chooses
  bool choosing_ = false;
  std::uint32_t copy_distance_ = 0, copy_length_ = 0;  // the copy in progress (distance 0: none)
  bool failed_ = false;
};

}  // namespace simmpi::runtime
