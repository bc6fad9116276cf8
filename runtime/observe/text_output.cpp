// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/text_output.hpp"

#include <zlib.h>

#include <cerrno>
#include <cstdio>

namespace simmpi::runtime {

bool TextOutput::open(const std::string& path, std::string* error) {
  errno = 0;
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) {
    *error = errno ? std::strerror(errno) : "cannot open it";
    return false;
  }
  if (path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0) {
    zip_ = new z_stream_s{};
    // Level 1: the timeline repeats itself (keys, names), so even the fastest level gives about
    // ten bytes an event. windowBits 15 + 16: a gzip header (no name, no time: the same bytes on
    // every run), as gzopen writes.
    if (deflateInit2(zip_, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      delete zip_;
      zip_ = nullptr;
      *error = "out of memory";
      return false;
    }
    zipped_.resize(kBlock / 2);
  }
  return true;
}

TextOutput::~TextOutput() {
  if (zip_) {
    deflateEnd(zip_);
    delete zip_;
  }
  if (file_) std::fclose(file_);
}

void TextOutput::integer(std::int64_t v) {
  char digits[24];
  char* end = digits + sizeof digits;
  char* p = end;
  std::uint64_t u = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  do {
    *--p = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0) *--p = '-';
  text(std::string_view(p, static_cast<std::size_t>(end - p)));
}

void TextOutput::micros(std::int64_t ps) {
  if (ps < 0) {
    text('-');
    ps = -ps;
  }
  char digits[32];
  char* end = digits + sizeof digits;
  char* p = end;
  std::uint64_t u = static_cast<std::uint64_t>(ps);
  for (int i = 0; i < 6; ++i) {  // the six decimals, zeros kept
    *--p = static_cast<char>('0' + u % 10);
    u /= 10;
  }
  *--p = '.';
  do {
    *--p = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u);
  text(std::string_view(p, static_cast<std::size_t>(end - p)));
}

void TextOutput::flush_block() {
  emit(buffer_.data(), used_);
  used_ = 0;
}

void TextOutput::emit(const char* data, std::size_t n) {
  if (!file_ || n == 0) return;
  if (!zip_) {
    if (std::fwrite(data, 1, n, file_) != n) failed_ = true;
    return;
  }
  zip_->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
  zip_->avail_in = static_cast<uInt>(n);
  do {
    zip_->next_out = zipped_.data();
    zip_->avail_out = static_cast<uInt>(zipped_.size());
    if (deflate(zip_, Z_NO_FLUSH) == Z_STREAM_ERROR) failed_ = true;
    const std::size_t out = zipped_.size() - zip_->avail_out;
    if (out && std::fwrite(zipped_.data(), 1, out, file_) != out) failed_ = true;
  } while (zip_->avail_in > 0 || zip_->avail_out == 0);
}

bool TextOutput::close(std::string* error) {
  if (!file_) return !failed_;
  flush_block();
  if (zip_) {
    int status;
    do {
      zip_->next_in = nullptr;
      zip_->avail_in = 0;
      zip_->next_out = zipped_.data();
      zip_->avail_out = static_cast<uInt>(zipped_.size());
      status = deflate(zip_, Z_FINISH);
      const std::size_t out = zipped_.size() - zip_->avail_out;
      if (out && std::fwrite(zipped_.data(), 1, out, file_) != out) failed_ = true;
    } while (status == Z_OK);
    if (status != Z_STREAM_END) failed_ = true;
    deflateEnd(zip_);
    delete zip_;
    zip_ = nullptr;
  }
  errno = 0;
  if (std::fclose(file_) != 0) failed_ = true;
  file_ = nullptr;
  if (failed_) *error = errno ? std::strerror(errno) : "a write failed";
  return !failed_;
}

}  // namespace simmpi::runtime
