// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/text_output.hpp"

#include <isa-l/igzip_lib.h>

#include <cerrno>
#include <cstdio>

namespace simmpi::runtime {

struct TextOutput::Gzip {
  isal_zstream stream{};
  std::vector<std::uint8_t> level_buffer = std::vector<std::uint8_t>(ISAL_DEF_LVL1_DEFAULT);
};

TextOutput::TextOutput() = default;

bool TextOutput::open(const std::string& path, std::string* error) {
  errno = 0;
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) {
    *error = errno ? std::strerror(errno) : "cannot open it";
    return false;
  }
  if (path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0) {
    gzip_ = std::make_unique<Gzip>();
    isal_zstream& s = gzip_->stream;
    isal_deflate_init(&s);
    // Level 1: the timeline repeats itself (keys, names), so even the fastest level gives about
    // ten bytes an event. IGZIP_GZIP: igzip's fixed gzip header (no name, no time: the same bytes
    // on every run) and trailer around one deflate stream.
    s.level = 1;
    s.level_buf = gzip_->level_buffer.data();
    s.level_buf_size = static_cast<std::uint32_t>(gzip_->level_buffer.size());
    s.gzip_flag = IGZIP_GZIP;
    s.flush = NO_FLUSH;
    s.end_of_stream = 0;
    zipped_.resize(kBlock / 2);
  }
  return true;
}

TextOutput::~TextOutput() {
  if (file_) std::fclose(file_);
}

namespace {

// "00" "01" ... "99": numbers are written two digits at a time.
constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

int digit_count(std::uint64_t u) {
  int n = 1;
  for (; u >= 10000; u /= 10000) n += 4;
  return n + (u >= 10) + (u >= 100) + (u >= 1000);
}

// Writes `u` in decimal at `p`, two digits at a time from the last; returns the end.
char* copy_digits(char* p, std::uint64_t u) {
  char* const end = p + digit_count(u);
  char* q = end;
  while (u >= 100) {
    q -= 2;
    std::memcpy(q, kDigitPairs + 2 * (u % 100), 2);
    u /= 100;
  }
  if (u >= 10)
    std::memcpy(q - 2, kDigitPairs + 2 * u, 2);
  else
    q[-1] = static_cast<char>('0' + u);
  return end;
}

}  // namespace

char* TextOutput::write_integer(char* p, std::int64_t v) {
  if (v < 0) *p++ = '-';
  return copy_digits(p, v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v));
}

char* TextOutput::write_micros(char* p, std::int64_t ps) {
  if (ps < 0) *p++ = '-';
  const std::uint64_t u =
      ps < 0 ? 0 - static_cast<std::uint64_t>(ps) : static_cast<std::uint64_t>(ps);
  p = copy_digits(p, u / 1000000);
  *p++ = '.';
  const std::uint64_t fraction = u % 1000000;  // six digits, leading zeros kept
  std::memcpy(p, kDigitPairs + 2 * (fraction / 10000), 2);
  std::memcpy(p + 2, kDigitPairs + 2 * (fraction / 100 % 100), 2);
  std::memcpy(p + 4, kDigitPairs + 2 * (fraction % 100), 2);
  return p + 6;
}

void TextOutput::flush_block() {
  emit(buffer_.data(), used_);
  used_ = 0;
}

void TextOutput::emit(const char* data, std::size_t n) {
  if (!file_ || n == 0) return;
  if (!gzip_) {
    if (std::fwrite(data, 1, n, file_) != n) failed_ = true;
    return;
  }
  isal_zstream& s = gzip_->stream;
  s.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(data));
  s.avail_in = static_cast<std::uint32_t>(n);
  do {
    s.next_out = zipped_.data();
    s.avail_out = static_cast<std::uint32_t>(zipped_.size());
    if (isal_deflate(&s) != COMP_OK) failed_ = true;
    const std::size_t out = zipped_.size() - s.avail_out;
    if (out && std::fwrite(zipped_.data(), 1, out, file_) != out) failed_ = true;
    if (failed_) return;
  } while (s.avail_in > 0 || s.avail_out == 0);
}

bool TextOutput::close(std::string* error) {
  if (!file_) return !failed_;
  flush_block();
  if (gzip_) {
    isal_zstream& s = gzip_->stream;
    s.next_in = nullptr;
    s.avail_in = 0;
    s.end_of_stream = 1;
    while (!failed_ && s.internal_state.state != ZSTATE_END) {
      s.next_out = zipped_.data();
      s.avail_out = static_cast<std::uint32_t>(zipped_.size());
      if (isal_deflate(&s) != COMP_OK) failed_ = true;
      const std::size_t out = zipped_.size() - s.avail_out;
      if (out && std::fwrite(zipped_.data(), 1, out, file_) != out) failed_ = true;
    }
    gzip_.reset();
  }
  errno = 0;
  if (std::fclose(file_) != 0) failed_ = true;
  file_ = nullptr;
  if (failed_) *error = errno ? std::strerror(errno) : "a write failed";
  return !failed_;
}

}  // namespace simmpi::runtime
