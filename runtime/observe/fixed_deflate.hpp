// SPDX-License-Identifier: Apache-2.0
// One gzip member (RFC 1952) holding one deflate block (RFC 1951) with deflate's fixed Huffman
// codes, made of the literal bytes and the copies (length, distance back) its caller chooses. No
// search for repeats and no code tables to build: a writer that knows where its text repeats
// (TextOutput's marks) compresses it for a few instructions a byte, where a general compressor
// hashes every byte. Every gunzip, zlib and browser reads it; the same calls give the same bytes
// on every machine.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

namespace simmpi::runtime {

class FixedDeflate {
 public:
  static constexpr std::uint32_t kWindow = 32768;  // the farthest back a copy reaches
  static constexpr std::uint32_t kMinCopy = 3, kMaxCopy = 258;

  // Room for the compressed form of `text_bytes` bytes of text (at most 9 bits a byte) between
  // two calls of take(). Starts with the gzip header and the block's header.
  explicit FixedDeflate(std::size_t text_bytes);

  // The `n` bytes at `text` as literals; reads (and ignores) up to 7 bytes after them.
  void literals(const char* text, std::size_t n);
  // The first `n` (1-8) bytes of `w` (the first lowest), ASCII, as literals.
  void ascii_literals(std::uint64_t w, unsigned n) {
    Bits b = bits_;  // in registers: the stores through b.end could otherwise be to *this
    put_ascii(b, w, n);
    bits_ = b;
  }
  // `length` (kMinCopy..kMaxCopy) bytes that are the same as those `distance` (1..kWindow) back.
  void copy(std::uint32_t length, std::uint32_t distance) {
    Bits b = bits_;
    put_copy(b, length, distance);
    bits_ = b;
  }
  // The first `n` (1-8) bytes of `w`, each a digit or '.', as literals: a number's text.
  void number_literals(std::uint64_t w, unsigned n) {
    Bits b = bits_;
    put_number(b, w, n);
    bits_ = b;
  }
  // copy(), then number_literals() of the first `n` (1-8) bytes of `w`, with the bits' state
  // loaded and stored once (a number's digits after those it shares with its reference). Inline
  // into TextOutput's number path, where a call cost a tenth of the number's compression.
  [[gnu::always_inline]] void copy_then_number(std::uint32_t length, std::uint32_t distance,
                                               std::uint64_t w, unsigned n) {
    Bits b = bits_;
    put_copy(b, length, distance);
    put_number(b, w, n);
    bits_ = b;
  }
  // Ends the block and the member, with the text's CRC-32 and its length.
  void finish(std::uint32_t crc, std::uint64_t size);

  // The whole bytes made since the last call (the last few bits stay until more come).
  const unsigned char* data() const { return out_.data(); }
  std::size_t size() const { return static_cast<std::size_t>(bits_.end - out_.data()); }
  void take() { bits_.end = out_.data(); }

  // A code as it goes into the stream: its bits, already in stream order, and how many.
  struct Code {
    std::uint32_t bits = 0;
    std::uint32_t length = 0;
  };
  // The codes of RFC 1951 3.2.6, made once.
  struct Tables {
    std::array<Code, 256> literal;
    // By length (3..258): the length's code and its extra bits, together.
    std::array<Code, kMaxCopy + 1> length;
    // By distance - 1 below 256, else by 256 + ((distance - 1) >> 7) (codes from 16 on cover
    // whole multiples of 128): the code (5 bits, reversed), its first distance and extra bits.
    struct Distance {
      std::uint32_t bits, base, extra;
    };
    std::array<Distance, 512> distance;
    Tables();
  };

 private:
  static const Tables kTables;
  // Each byte's bits in the opposite order.
  static std::uint64_t reversed_bytes(std::uint64_t x) {
    x = (x >> 1 & 0x5555555555555555) | (x & 0x5555555555555555) << 1;
    x = (x >> 2 & 0x3333333333333333) | (x & 0x3333333333333333) << 2;
    return (x >> 4 & 0x0F0F0F0F0F0F0F0F) | (x & 0x0F0F0F0F0F0F0F0F) << 4;
  }
  static_assert(std::endian::native == std::endian::little, "put() stores the low bytes first");
  // The bits not yet whole bytes, and where they go. put() stores a word every time and moves on
  // by the whole bytes in it: no branch on how full the word is, which no predictor guesses
  // (the output has a word to spare).
  struct Bits {
    std::uint64_t acc = 0;  // the first in the lowest; fewer than 8 between calls
    unsigned fill = 0;
    unsigned char* end = nullptr;
    // Appends the `n` (at most 56) low bits of `bits` (the rest zero), first bit first, as
    // deflate packs them.
    void put(std::uint64_t bits, unsigned n) {
      acc |= bits << fill;
      fill += n;
      std::memcpy(end, &acc, 8);
      end += fill >> 3;
      acc >>= fill & ~7u;
      fill &= 7;
    }
  };

  static void put_copy(Bits& b, std::uint32_t length, std::uint32_t distance) {
    const Code& l = kTables.length[length];
    const std::uint32_t d = distance - 1;
    const Tables::Distance& c = kTables.distance[d < 256 ? d : 256 + (d >> 7)];
    const std::uint64_t dist_bits = c.bits | (static_cast<std::uint64_t>(distance - c.base) << 5);
    b.put(l.bits | (dist_bits << l.length), l.length + 5 + c.extra);  // at most 13 + 18 bits
  }
  // The `n` (1-8) low bytes of `codes` (the rest zero), 8 bits each.
  static void put_bytes(Bits& b, std::uint64_t codes, unsigned n) {
    if (n < 8) {
      b.put(codes, 8 * n);
    } else {
      b.put(codes & 0xFFFFFFFF, 32);
      b.put(codes >> 32, 32);
    }
  }
  static void put_ascii(Bits& b, std::uint64_t w, unsigned n) {
    // An ASCII byte's code is the byte plus 0x30 in 8 bits (RFC 1951 3.2.6: 0-143), sent from
    // its most significant bit: the sum never carries out of an ASCII byte.
    const std::uint64_t codes =
        reversed_bytes(w + 0x3030303030303030) & (~std::uint64_t{0} >> (64 - 8 * n));
    put_bytes(b, codes, n);
  }

  // put_ascii() for bytes that are digits or '.' only, without reversing whole bytes. Their
  // codes are 0x60-0x69 and 0x5E, sent from the most significant bit: the reversed code has
  // the low nibble's 4 bits reversed above (two multiplications move bits 0 and 2, 1 and 3 to
  // 7 and 5, 6 and 4 in every byte at once; what else they make lands below bit 4 or in the
  // next byte's two lowest bits, all different bits, so nothing carries) and the high nibble's
  // reversed below: 6 for a digit (its bit 4 set), 0xA for '.'.
  static void put_number(Bits& b, std::uint64_t w, unsigned n) {
    constexpr std::uint64_t kBytes = 0x0101010101010101;
    const std::uint64_t high =
        ((w & 0x05 * kBytes) * 0x88 + (w & 0x0A * kBytes) * 0x22) & 0xF0 * kBytes;
    const std::uint64_t low = 0x0A * kBytes - (w >> 2 & 0x04 * kBytes);
    const std::uint64_t codes = (high | low) & (~std::uint64_t{0} >> (64 - 8 * n));
    put_bytes(b, codes, n);
  }

  std::vector<unsigned char> out_;
  Bits bits_;
};

}  // namespace simmpi::runtime
