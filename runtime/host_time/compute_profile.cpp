// SPDX-License-Identifier: Apache-2.0
// Reading and writing compute profiles (the format is in the header).
#include "runtime/host_time/compute_profile.hpp"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "runtime/core/error.hpp"

namespace simmpi::runtime {
namespace {

constexpr char kMagic[] = "SIMMPI-COMPUTE-PROFILE 1\n";
constexpr char kEnd[] = "END\n";

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void put_string(std::string& out, const std::string& s) {
  put_varint(out, s.size());
  out += s;
}

// Reads what put_varint and put_string wrote; any overrun is a truncated file.
class Reader {
 public:
  Reader(const std::string& data, const std::string& path) : data_(data), path_(path) {}
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= data_.size()) truncated();
      const auto byte = static_cast<unsigned char>(data_[pos_++]);
      v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return v;
    }
    throw ConfigError(path_ + ": corrupt compute profile (a number runs past 64 bits at byte " +
                      std::to_string(pos_) + "); record it again");
  }
  std::string string() {
    const std::uint64_t n = varint();
    if (n > data_.size() - pos_) truncated();
    std::string s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  bool at(const char* text) const { return data_.compare(pos_, std::string::npos, text) == 0; }
  std::size_t pos() const { return pos_; }

 private:
  [[noreturn]] void truncated() const {
    throw ConfigError(path_ + ": truncated compute profile (ends at byte " +
                      std::to_string(data_.size()) +
                      "); was its run stopped before the end? Record it again");
  }
  const std::string& data_;
  const std::string& path_;
  std::size_t pos_ = sizeof kMagic - 1;
};

}  // namespace

void ComputeProfile::set_header(const std::string& key, const std::string& value) {
  for (auto& [k, v] : header_)
    if (k == key) {
      v = value;
      return;
    }
  header_.emplace_back(key, value);
}

const std::string* ComputeProfile::header(const std::string& key) const {
  for (const auto& [k, v] : header_)
    if (k == key) return &v;
  return nullptr;
}

std::uint32_t ComputeProfile::call_index(const char* name) {
  auto hit = call_by_pointer_.find(name);
  if (hit != call_by_pointer_.end()) return hit->second;
  std::uint32_t index = 0;
  while (index < calls_.size() && calls_[index] != name) ++index;
  if (index == calls_.size()) calls_.emplace_back(name);
  call_by_pointer_.emplace(name, index);
  return index;
}

const ComputeProfile::Stream* ComputeProfile::find_stream(int owner, int ordinal) const {
  for (const Stream& s : streams_)
    if (s.owner == owner && s.ordinal == ordinal) return &s;
  return nullptr;
}

void ComputeProfile::write(const std::string& path) const {
  std::string out = kMagic;
  put_varint(out, header_.size());
  for (const auto& [k, v] : header_) put_string(out, k), put_string(out, v);
  put_varint(out, calls_.size());
  for (const std::string& c : calls_) put_string(out, c);
  put_varint(out, streams_.size());
  for (const Stream& s : streams_) {
    put_varint(out, static_cast<std::uint64_t>(s.owner));
    put_varint(out, static_cast<std::uint64_t>(s.ordinal));
    put_varint(out, s.bursts.size());
    for (const Burst& b : s.bursts) {
      put_varint(out, b.call);
      put_varint(out, static_cast<std::uint64_t>(b.host_ns));
    }
  }
  out += kEnd;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(out.data(), static_cast<std::streamsize>(out.size()));
  if (!f.flush())
    throw ConfigError(path + ": cannot write the compute profile (runtime.host_time_record): " +
                      std::strerror(errno));
}

ComputeProfile ComputeProfile::read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw ConfigError(path + ": cannot read the compute profile (runtime.host_time_replay): " +
                      std::strerror(errno));
  const std::string data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (data.compare(0, sizeof kMagic - 1, kMagic) != 0)
    throw ConfigError(path +
                      ": not a simmpi compute profile (runtime.host_time_replay takes "
                      "what runtime.host_time_record wrote)");
  ComputeProfile p;
  Reader r(data, path);
  for (std::uint64_t n = r.varint(); n > 0; --n) {
    std::string k = r.string();
    p.header_.emplace_back(std::move(k), r.string());
  }
  for (std::uint64_t n = r.varint(); n > 0; --n) p.calls_.push_back(r.string());
  for (std::uint64_t n = r.varint(); n > 0; --n) {
    Stream s;
    s.owner = static_cast<int>(r.varint());
    s.ordinal = static_cast<int>(r.varint());
    const std::uint64_t bursts = r.varint();
    s.bursts.reserve(std::min<std::uint64_t>(bursts, data.size()));
    for (std::uint64_t b = 0; b < bursts; ++b) {
      const auto call = static_cast<std::uint32_t>(r.varint());
      if (call >= p.calls_.size())
        throw ConfigError(path + ": corrupt compute profile (a burst names call #" +
                          std::to_string(call) + " of " + std::to_string(p.calls_.size()) +
                          "); record it again");
      s.bursts.push_back({call, static_cast<std::int64_t>(r.varint())});
    }
    p.streams_.push_back(std::move(s));
  }
  if (!r.at(kEnd) || r.pos() + sizeof kEnd - 1 != data.size())
    throw ConfigError(path + ": corrupt compute profile (no end marker where the data ends, byte " +
                      std::to_string(r.pos()) + "); record it again");
  return p;
}

}  // namespace simmpi::runtime
