// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/text_output.hpp"

#include <isa-l/crc.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>

#include "runtime/core/error.hpp"

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

constexpr std::uint64_t kZeros = 0x3030303030303030;  // '0' in every byte

// The 8 decimal digits of `x` (below 10^8, leading zeros kept) as the values 0-9 in the bytes
// of a word, the first in the lowest: a few multiplications for all 8 (the quotients by 100 and
// by 10 as multiplications and shifts that are exact in this range, in every lane at once),
// where a digit at a time costs a dependent multiplication each.
std::uint64_t eight_digits(std::uint32_t x) {
  std::uint64_t v = x / 10000 | std::uint64_t{x % 10000} << 32;  // halves below 10^4
  const std::uint64_t hundreds = (v * 10486 >> 20) & 0x0000007F0000007F;
  v = hundreds | (v - hundreds * 100) << 16;  // quarters below 100, in 16-bit lanes
  const std::uint64_t tens = (v * 103 >> 10) & 0x000F000F000F000F;
  return tens | (v - tens * 10) << 8;
}

// `u` (below 10^8) in decimal, no leading zero: its text (the first byte lowest) and length.
std::uint64_t decimal(std::uint32_t u, unsigned* size) {
  const std::uint64_t digits = eight_digits(u);
  // The leading zeros, all but the last digit's.
  const auto skip = static_cast<unsigned>(std::countr_zero(digits | std::uint64_t{1} << 56) / 8);
  *size = 8 - skip;
  return (digits + kZeros) >> (8 * skip);
}

// Writes `u` in decimal at `p` (8 bytes a store: the buffer has room past the end); returns the
// end.
char* copy_digits(char* p, std::uint64_t u) {
  if (u >= 100000000) {
    p = copy_digits(p, u / 100000000);
    const std::uint64_t text = eight_digits(static_cast<std::uint32_t>(u % 100000000)) + kZeros;
    std::memcpy(p, &text, 8);
    return p + 8;
  }
  unsigned size;
  const std::uint64_t text = decimal(static_cast<std::uint32_t>(u), &size);
  std::memcpy(p, &text, 8);
  return p + size;
}

// The six digits of a fraction (below 10^6), leading zeros kept (the two bytes above them in
// eight_digits are the zeros of 10^7 and 10^6), and how many there are without the trailing
// zeros (the fraction is not zero: a digit stays).
std::uint64_t fraction_digits(std::uint32_t fraction, unsigned* size) {
  const std::uint64_t digits = eight_digits(fraction) >> 16;
  *size = 8 - static_cast<unsigned>(std::countl_zero(digits)) / 8;
  return digits + (kZeros >> 16);
}

}  // namespace

inline std::uint64_t TextOutput::next_decimal(std::uint32_t u, unsigned* size, LastDecimal* last) {
  const std::uint32_t more = u - last->value;
  std::uint64_t text;
  if (more < 10 && last->size && (last->text >> (8 * last->size - 8)) + more <= '9') {
    text = last->text + (std::uint64_t{more} << (8 * last->size - 8));
    *size = last->size;
  } else {
    text = decimal(u, size);
  }
  *last = {u, *size, text};
  return text;
}

inline bool TextOutput::short_integer(std::int64_t v, NumberText* t, LastDecimal* last) {
  if (v < 0 || v >= 100000000) return false;
  t->low = last ? next_decimal(static_cast<std::uint32_t>(v), &t->size, last)
                : decimal(static_cast<std::uint32_t>(v), &t->size);
  t->high = 0;
  return true;
}

inline bool TextOutput::short_micros(std::int64_t ps, NumberText* t, LastDecimal* last) {
  if (ps < 0 || ps >= std::int64_t{100000000} * 1000000) return false;
  const auto u = static_cast<std::uint64_t>(ps);
  unsigned size;
  const auto whole = static_cast<std::uint32_t>(u / 1000000);
  if (!last) {
    t->low = decimal(whole, &size);
  } else if (whole == last->value && last->size) {  // a time of the same microsecond as the last
    t->low = last->text;
    size = last->size;
  } else {
    t->low = decimal(whole, &size);
    *last = {whole, size, t->low};
  }
  t->high = 0;
  t->size = size;
  if (const auto fraction = static_cast<std::uint32_t>(u % 1000000)) {
    unsigned digits;
    const std::uint64_t point = '.' | fraction_digits(fraction, &digits) << 8;
    t->low |= point << (8 * size - 8) << 8;  // `size` is 1-8
    t->high = point >> (64 - 8 * size);
    t->size = size + 1 + digits;
  }
  return true;
}

void TextOutput::integer(std::int64_t v) {
  char* p = room(kMaxNumber);
  NumberText t;
  if (short_integer(v, &t, &last_integer_)) return number(p, t);
  const std::size_t n = static_cast<std::size_t>(format_integer(p, v) - p);
  used_ += n;
  if (in_unit_) compared_piece(n);  // a long number: compared as text
}

void TextOutput::micros(std::int64_t ps) {
  char* p = room(kMaxNumber);
  NumberText t;
  if (short_micros(ps, &t, &last_micros_)) return number(p, t);
  const std::size_t n = static_cast<std::size_t>(format_micros(p, ps) - p);
  used_ += n;
  if (in_unit_) compared_piece(n);  // a long number: compared as text
}

char* TextOutput::format_integer(char* p, std::int64_t v) {
  NumberText t;
  if (short_integer(v, &t)) {
    std::memcpy(p, &t.low, 8);
    return p + t.size;
  }
  if (v < 0) *p++ = '-';
  return copy_digits(p, v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v));
}

char* TextOutput::format_micros(char* p, std::int64_t ps) {
  NumberText t;
  if (short_micros(ps, &t)) {
    std::memcpy(p, &t.low, 8);
    std::memcpy(p + 8, &t.high, 8);
    return p + t.size;
  }
  if (ps < 0) *p++ = '-';
  const std::uint64_t u =
      ps < 0 ? 0 - static_cast<std::uint64_t>(ps) : static_cast<std::uint64_t>(ps);
  p = copy_digits(p, u / 1000000);
  const auto fraction = static_cast<std::uint32_t>(u % 1000000);
  if (fraction == 0) return p;
  *p++ = '.';
  unsigned digits;
  const std::uint64_t text = fraction_digits(fraction, &digits);
  std::memcpy(p, &text, 8);
  return p + digits;
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

bool TextOutput::begin_unit(Mark& near, Mark& far) {
  if (encoded_ < used_) literals(used_ - encoded_);  // the text before, alone
  const std::uint64_t start = position(used_);
  const auto layout = static_cast<std::uint32_t>(units_++ % kLayouts);
  // A mark is a reference when a copy can reach it (a mark at `start`, of an empty unit just
  // before, cannot) and its layout is still its own and not about to be this unit's.
  auto usable = [&](const Mark& m) -> const Layout* {
    if (start - m.at - 1 >= kWindow || m.layout == layout) return nullptr;
    const Layout& l = layouts_[m.layout];
    return l.at == m.at ? &l : nullptr;
  };
  // The lane's last event of the kind is the likeliest to be the same; the kind's last on any
  // lane is nearer only when that is out of the window.
  const Layout* near_layout = usable(near);
  reference_ = near_layout ? near_layout : usable(far);
  distance_ = reference_ ? start - reference_->at : 0;
  reference_pieces_ = reference_ ? reference_->pieces : 0;
  unit_ = &layouts_[layout];
  unit_->at = start;
  unit_->pieces = 0;
  pieces_ = 0;
  near_ = &near;
  far_ = &far;
  in_unit_ = true;
  return near_layout != nullptr;
}

void TextOutput::end_unit() {
  same_text(used_ - encoded_);
  if (pieces_ < kAfterLongPiece)
    unit_->pieces = static_cast<std::uint16_t>(std::min<std::size_t>(pieces_, kMarkedPieces));
  const Mark m{unit_->at, static_cast<std::uint32_t>(unit_ - layouts_.data())};
  *near_ = m;
  *far_ = m;
  in_unit_ = false;
}

void TextOutput::wrong_same_piece(std::size_t n) const {
  SIMMPI_ASSERT(reference_->length[pieces_] == n,
                "a unit's piece known to be the same as its reference's is %zu bytes, the "
                "reference's %u",
                n, reference_->length[pieces_]);
}

inline void TextOutput::number_piece(std::uint64_t low, std::uint64_t high, std::size_t n) {
  if (!reference_piece()) return add_piece(n);
  // The digits the two have in common before the first that differs are copied with the text
  // before them, the rest go out as literals. The reference's 16 bytes are in the buffer (it
  // is before this number, which has room for 32).
  const std::size_t start = used_ - n, theirs = reference_->length[pieces_];
  std::uint64_t r[2];
  std::memcpy(r, buffer_.data() + (start - distance_), 16);
  const std::uint64_t d0 = low ^ r[0], d1 = high ^ r[1];
  const auto first_difference = static_cast<std::size_t>(
      d0 ? std::countr_zero(d0) / 8 : 8 + std::countr_zero(d1 | std::uint64_t{1} << 63) / 8);
  const std::size_t same = std::min({first_difference, n, theirs});
  const std::size_t copied = copy_length_ + (start + same - encoded_), rest = n - same;
  if (copy_distance_ != distance_ || rest - 1 >= 8 ||
      copied - FixedDeflate::kMinCopy > FixedDeflate::kMaxCopy - FixedDeflate::kMinCopy)
    return other_number(low, high, n, same, theirs);
  // The digits from `same` on: the two words shifted by `same` bytes (a digit differs, so
  // `same` is below 16).
  const unsigned __int128 text = (static_cast<unsigned __int128>(high) << 64 | low) >> (8 * same);
  deflate_->copy_then_number(static_cast<std::uint32_t>(copied), copy_distance_,
                             static_cast<std::uint64_t>(text), static_cast<unsigned>(rest));
  encoded_ = start + n;
  // The next copy, of the text after the number, begins at the distance of the reference's
  // text after its number: set (with no length yet), copy() makes it without new_copy(). It is
  // the copy's before when the two numbers are as long (most).
  copy_length_ = 0;
  if (n != theirs) {
    distance_ += n - theirs;
    copy_distance_ = distance_ <= kWindow ? static_cast<std::uint32_t>(distance_) : 0;
  }
  add_piece(n);
}

void TextOutput::other_number(std::uint64_t low, std::uint64_t high, std::size_t n,
                              std::size_t same, std::size_t theirs) {
  const std::size_t start = used_ - n;
  same_text(start - encoded_ + same);
  distance_ += n - theirs;
  if (const std::size_t rest = n - same) {  // the bytes from `same` on, in two words
    std::size_t skip = same;
    if (skip >= 8) {
      low = high;
      high = 0;
      skip -= 8;
    }
    if (skip) {
      low = low >> (8 * skip) | high << (64 - 8 * skip);
      high >>= 8 * skip;
    }
    const auto first = static_cast<unsigned>(std::min<std::size_t>(rest, 8));
    if (copy_length_ >= FixedDeflate::kMinCopy && copy_length_ <= FixedDeflate::kMaxCopy) {
      deflate_->copy_then_number(copy_length_, copy_distance_, low, first);
    } else {
      end_copy();
      deflate_->number_literals(low, first);
    }
    if (rest > 8) deflate_->number_literals(high, static_cast<unsigned>(rest - 8));
    encoded_ += rest;
    copy_distance_ = distance_ <= kWindow ? static_cast<std::uint32_t>(distance_) : 0;
    copy_length_ = 0;
  }
  add_piece(n);
}

void TextOutput::compared_piece(std::size_t n) {
  const std::size_t start = used_ - n;
  if (reference_piece()) {
    std::size_t from = start - distance_;  // in buffer_
    const std::size_t to = from + reference_->length[pieces_];
    same_text(start - encoded_);
    while (encoded_ < used_) {
      const std::size_t same = common_prefix(buffer_.data() + encoded_, buffer_.data() + from,
                                             std::min(used_ - encoded_, to - from));
      copy(encoded_ - from, same);
      from += same;
      if (encoded_ == used_) break;
      // A difference: a number that is not the same (its digits to the end go out as
      // literals, the reference's are passed over), or else text unlike the reference's (all
      // goes out as literals).
      const std::size_t mine = number_length(buffer_.data() + encoded_, used_ - encoded_);
      const std::size_t theirs = number_length(buffer_.data() + from, to - from);
      if (mine == 0 && theirs == 0) {
        literals(used_ - encoded_);
        break;
      }
      literals(mine);
      from += theirs;
    }
    distance_ = used_ - to;
  }
  add_piece(n);
}

void TextOutput::long_piece(std::string_view s) {
  same_text(used_ - encoded_);
  drop_reference();  // its text goes out as literals, and so does the rest of the unit
  unit_->pieces = static_cast<std::uint16_t>(std::min<std::size_t>(pieces_, kMarkedPieces));
  pieces_ = kAfterLongPiece;  // a later unit loses this one as its reference here
  append(s);
}

void TextOutput::new_copy(std::uint64_t distance, std::size_t n) {
  if (n == 0) return;
  if (distance > kWindow) return literals(n);
  if (distance != copy_distance_) {
    if (copy_length_) end_copy();  // none after a number's literals, most often
    copy_distance_ = static_cast<std::uint32_t>(distance);
  }
  copy_length_ += static_cast<std::uint32_t>(n);
  for (; copy_length_ >= FixedDeflate::kMaxCopy + FixedDeflate::kMinCopy;
       copy_length_ -= FixedDeflate::kMaxCopy)
    deflate_->copy(FixedDeflate::kMaxCopy, copy_distance_);
  encoded_ += n;
}

void TextOutput::literals(std::size_t n) {
  if (n == 0) return;
  end_copy();
  deflate_->literals(buffer_.data() + encoded_, n);
  encoded_ += n;
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
    append(s.substr(done, piece));
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
  if (in_unit_)
    same_text(used_ - encoded_);
  else if (encoded_ < used_)
    literals(used_ - encoded_);
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
    if (encoded_ < used_) literals(used_ - encoded_);
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
