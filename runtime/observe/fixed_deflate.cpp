// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/fixed_deflate.hpp"

#include <algorithm>
#include <array>

namespace simmpi::runtime {
namespace {

using Code = FixedDeflate::Code;

// Huffman codes are sent from their most significant bit, into a stream filled from the least
// significant: reversed once here.
std::uint32_t reversed(std::uint32_t code, std::uint32_t length) {
  std::uint32_t r = 0;
  for (std::uint32_t i = 0; i < length; ++i) r |= ((code >> i) & 1u) << (length - 1 - i);
  return r;
}

// RFC 1951 3.2.6: the fixed literal/length code of `symbol` (0..287).
Code fixed_code(std::uint32_t symbol) {
  if (symbol < 144) return {reversed(0x30 + symbol, 8), 8};
  if (symbol < 256) return {reversed(0x190 + symbol - 144, 9), 9};
  if (symbol < 280) return {reversed(symbol - 256, 7), 7};
  return {reversed(0xC0 + symbol - 280, 8), 8};
}

// RFC 1951 3.2.5: the lengths and distances each code starts at, and their extra bits.
constexpr std::array<std::uint32_t, 29> kLengthBase = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                                       15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                                       67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<std::uint32_t, 29> kLengthExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                        2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<std::uint32_t, 30> kDistanceBase = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};

}  // namespace

FixedDeflate::Tables::Tables() {
  for (std::uint32_t c = 0; c < 256; ++c) literal[c] = fixed_code(c);
  for (std::uint32_t len = kMinCopy; len <= kMaxCopy; ++len) {
    std::uint32_t s = 0;
    while (s + 1 < kLengthBase.size() && kLengthBase[s + 1] <= len) ++s;
    const Code c = fixed_code(257 + s);
    length[len] = {c.bits | ((len - kLengthBase[s]) << c.length), c.length + kLengthExtra[s]};
  }
  for (std::uint32_t index = 0; index < distance.size(); ++index) {
    if (index == 256 || index == 257) continue;  // (distance - 1) >> 7 is at least 2 there
    const std::uint32_t d = index < 256 ? index + 1 : ((index - 256) << 7) + 1;
    std::uint32_t s = 0;
    while (s + 1 < kDistanceBase.size() && kDistanceBase[s + 1] <= d) ++s;
    distance[index] = {reversed(s, 5), kDistanceBase[s], s < 4 ? 0 : s / 2 - 1};
  }
}

const FixedDeflate::Tables FixedDeflate::kTables;

FixedDeflate::FixedDeflate(std::size_t text_bytes) : out_(text_bytes + text_bytes / 8 + 4096) {
  // The gzip header: deflate, no flags, no time (the same bytes on every run), no extra
  // flags, operating system unknown.
  constexpr unsigned char kHeader[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff};
  std::memcpy(out_.data(), kHeader, sizeof kHeader);
  bits_.end = out_.data() + sizeof kHeader;
  bits_.put(1 | (1 << 1), 3);  // the last block (the only one), with the fixed codes
}

void FixedDeflate::literals(const char* text, std::size_t n) {
  std::size_t i = 0;
  for (; i < n; i += 8) {  // eight ASCII bytes at once, else one by one
    const auto k = static_cast<unsigned>(std::min<std::size_t>(n - i, 8));
    std::uint64_t w;
    std::memcpy(&w, text + i, 8);
    if (w & 0x8080808080808080 & (~std::uint64_t{0} >> (64 - 8 * k))) break;
    ascii_literals(w, k);
  }
  for (; i < n; ++i) {
    const Code& c = kTables.literal[static_cast<unsigned char>(text[i])];
    bits_.put(c.bits, c.length);
  }
}

void FixedDeflate::finish(std::uint32_t crc, std::uint64_t size) {
  bits_.put(0, 7);                     // the end of the block: symbol 256, seven zero bits
  bits_.put(0, (8 - bits_.fill) & 7);  // the last byte filled up
  unsigned char*& end = bits_.end;
  for (std::uint32_t v : {crc, static_cast<std::uint32_t>(size)})  // ISIZE: the size mod 2^32
    for (int i = 0; i < 4; ++i) *end++ = static_cast<unsigned char>(v >> (8 * i));
}

}  // namespace simmpi::runtime
