// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/text_output.hpp"

#include <isa-l/crc.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>

namespace simmpi::runtime {

TextOutput::TextOutput() = default;

bool TextOutput::open(const std::string& path, std::string* error) {
  errno = 0;
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) {
    *error = errno ? std::strerror(errno) : "cannot open it";
    return false;
  }
  if (path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0)
    deflate_ = std::make_unique<FixedDeflate>(kBlock);
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

char* TextOutput::format_integer(char* p, std::int64_t v) {
  if (v < 0) *p++ = '-';
  return copy_digits(p, v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v));
}

char* TextOutput::format_micros(char* p, std::int64_t ps) {
  if (ps < 0) *p++ = '-';
  const std::uint64_t u =
      ps < 0 ? 0 - static_cast<std::uint64_t>(ps) : static_cast<std::uint64_t>(ps);
  p = copy_digits(p, u / 1000000);
  const std::uint64_t fraction = u % 1000000;  // six digits, leading zeros kept
  if (fraction == 0) return p;
  *p++ = '.';
  std::memcpy(p, kDigitPairs + 2 * (fraction / 10000), 2);
  std::memcpy(p + 2, kDigitPairs + 2 * (fraction / 100 % 100), 2);
  std::memcpy(p + 4, kDigitPairs + 2 * (fraction % 100), 2);
  char* end = p + 6;
  while (end[-1] == '0') --end;  // the fraction is not zero: a digit stays
  return end;
}

namespace {

// How many bytes at `a` and at `b` (earlier) are the same, up to `n`; a word at a time (the
// buffer has a word to spare after its end).
std::size_t common_prefix(const char* a, const char* b, std::size_t n) {
  std::size_t i = 0;
  for (; i < n; i += 8) {
    std::uint64_t x, y;
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) return std::min(n, i + static_cast<std::size_t>(std::countr_zero(x ^ y) / 8));
  }
  return n;
}

// How many of the `n` bytes at `p` are characters of a number as TextOutput writes them ('-',
// '.', the digits; '/' between them is taken too, which only makes a copy shorter), a word at a
// time: where the numbers differ, their ends are where the copy goes on.
std::size_t number_length(const char* p, std::size_t n) {
  constexpr std::uint64_t kOnes = 0x0101010101010101, kHigh = 0x8080808080808080;
  for (std::size_t i = 0; i < n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    const std::uint64_t low = w & ~kHigh;  // each byte's 7 low bits: no borrow between bytes
    const std::uint64_t from_minus = (low | kHigh) - kOnes * '-';    // high bit: low >= '-'
    const std::uint64_t to_nine = (kOnes * '9' | kHigh) - low;       // high bit: low <= '9'
    const std::uint64_t number = from_minus & to_nine & ~w & kHigh;  // and ASCII
    if (const std::uint64_t stop = ~number & kHigh)
      return std::min(n, i + static_cast<std::size_t>(std::countr_zero(stop) / 8));
  }
  return n;
}

}  // namespace

void TextOutput::begin_unit(Mark& near, Mark& far) {
  encode(used_);  // the text before, alone
  const std::uint64_t at = position(used_);
  // The lane's last event of the kind is the likeliest to be the same (a copy going on from the
  // event before is taken too when its distance is the same); the kind's last on any lane is
  // nearer only when that is out of the window; the text that the copy going on goes on into
  // last.
  candidates_[0] = near.at;
  candidates_[1] = far.at;
  candidates_[2] = copy_distance_ ? at - copy_distance_ : 0;
  choosing_ = true;
  near.at = far.at = at;
}

void TextOutput::encode(std::size_t to) {
  const char* const text = buffer_.data();
  if (choosing_) {  // the nearest candidate within the window
    choosing_ = false;
    reference_ = 0;
    const std::uint64_t at = position(encoded_);
    for (std::uint64_t c : candidates_)
      if (c < at && at - c <= kWindow) {
        reference_ = c;
        break;
      }
  }
  while (encoded_ < to) {
    const std::uint64_t at = position(encoded_);
    if (!reference_ || at - reference_ > kWindow) {
      end_copy();
      deflate_->literals(text + encoded_, to - encoded_);
      encoded_ = to;
      reference_ = 0;
      return;
    }
    const std::size_t same =
        common_prefix(text + encoded_, text + (reference_ - base_), to - encoded_);
    if (same > 0) {
      const auto distance = static_cast<std::uint32_t>(at - reference_);
      if (distance != copy_distance_) {
        end_copy();
        copy_distance_ = distance;
      }
      copy_length_ += static_cast<std::uint32_t>(same);
      for (; copy_length_ >= FixedDeflate::kMaxCopy + FixedDeflate::kMinCopy;
           copy_length_ -= FixedDeflate::kMaxCopy)
        deflate_->copy(FixedDeflate::kMaxCopy, copy_distance_);
      encoded_ += same;
      reference_ += same;
      if (encoded_ == to) return;  // the copy may go on with the next text
    }
    // A difference: a number that is not the same (its digits to the end go out as literals,
    // the reference's are passed over), or else text unlike the reference's (all goes out as
    // literals).
    end_copy();
    const std::size_t mine = encoded_ + number_length(text + encoded_, to - encoded_);
    const std::size_t from = static_cast<std::size_t>(reference_ - base_);
    const std::size_t theirs = from + number_length(text + from, used_ - from);
    if (mine == encoded_ && theirs == from) {
      reference_ = 0;
      continue;
    }
    deflate_->literals(text + encoded_, mine - encoded_);
    encoded_ = mine;
    reference_ = position(theirs);
  }
}

void TextOutput::end_copy() {
  std::uint32_t n = copy_length_;
  if (n > FixedDeflate::kMaxCopy) {  // below kMaxCopy + kMinCopy: two copies
    deflate_->copy(n - FixedDeflate::kMinCopy, copy_distance_);
    n = FixedDeflate::kMinCopy;
  }
  if (n >= FixedDeflate::kMinCopy)
    deflate_->copy(n, copy_distance_);
  else if (n > 0)
    deflate_->literals(buffer_.data() + encoded_ - n, n);  // too short to copy
  copy_distance_ = copy_length_ = 0;
}

void TextOutput::write_long(std::string_view s) {
  for (std::size_t done = 0; done < s.size();) {
    const std::size_t piece = std::min<std::size_t>(s.size() - done, 1 << 16);
    text(s.substr(done, piece));
    done += piece;
  }
}

void TextOutput::write_file(const void* data, std::size_t n) {
  if (n && !failed_ && std::fwrite(data, 1, n, file_) != n) failed_ = true;
}

void TextOutput::flush_block() {
  if (!deflate_) {
    if (file_) write_file(buffer_.data(), used_);
    base_ += used_;
    used_ = 0;
    return;
  }
  encode(used_);
  crc_ = crc32_gzip_refl(crc_, reinterpret_cast<unsigned char*>(buffer_.data() + crc_from_),
                         used_ - crc_from_);
  write_file(deflate_->data(), deflate_->size());
  deflate_->take();
  // The window's worth of text stays for the copies to come.
  const std::size_t keep = std::min(used_, kWindow);
  std::memmove(buffer_.data(), buffer_.data() + used_ - keep, keep);
  base_ += used_ - keep;
  used_ = encoded_ = crc_from_ = keep;
}

bool TextOutput::close(std::string* error) {
  if (!file_) return !failed_;
  if (deflate_) {
    encode(used_);
    end_copy();
    crc_ = crc32_gzip_refl(crc_, reinterpret_cast<unsigned char*>(buffer_.data() + crc_from_),
                           used_ - crc_from_);
    deflate_->finish(crc_, position(used_) - kFirstPosition);
    write_file(deflate_->data(), deflate_->size());
    deflate_.reset();
  } else {
    write_file(buffer_.data(), used_);
  }
  used_ = 0;
  errno = 0;
  if (std::fclose(file_) != 0) failed_ = true;
  file_ = nullptr;
  if (failed_) *error = errno ? std::strerror(errno) : "a write failed";
  return !failed_;
}

}  // namespace simmpi::runtime
