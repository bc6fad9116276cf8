// SPDX-License-Identifier: Apache-2.0
// One gzip member (RFC 1952) holding one deflate block (RFC 1951) with deflate's fixed Huffman
// codes, made of the literal bytes and the copies (length, distance back) its caller chooses. No
// search for repeats and no code tables to build: a writer that knows where its text repeats
// (TextOutput's marks) compresses it for a few instructions a byte, where a general compressor
// hashes every byte. Every gunzip, zlib and browser reads it; the same calls give the same bytes
// on every machine.
#pragma once

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

  void literals(const char* text, std::size_t n);
  // `length` (kMinCopy..kMaxCopy) bytes that are the same as those `distance` (1..kWindow) back.
  void copy(std::uint32_t length, std::uint32_t distance);
  // Ends the block and the member, with the text's CRC-32 and its length.
  void finish(std::uint32_t crc, std::uint64_t size);

  // The whole bytes made since the last call (the last few bits stay until more come).
  const unsigned char* data() const { return out_.data(); }
  std::size_t size() const { return static_cast<std::size_t>(end_ - out_.data()); }
  void take() { end_ = out_.data(); }

 private:
  static_assert(std::endian::native == std::endian::little, "put() stores the low bytes first");
  // Appends the `n` (at most 32) low bits of `bits`, first bit first, as deflate packs them.
  void put(std::uint64_t bits, unsigned n) {
    acc_ |= bits << fill_;
    fill_ += n;
    if (fill_ >= 32) {
      std::memcpy(end_, &acc_, 4);
      end_ += 4;
      acc_ >>= 32;
      fill_ -= 32;
    }
  }

  std::vector<unsigned char> out_;
  unsigned char* end_;
  std::uint64_t acc_ = 0;  // bits not yet stored, the first in the lowest
  unsigned fill_ = 0;
};

}  // namespace simmpi::runtime
