// SPDX-License-Identifier: Apache-2.0
#include "tools/replay/trace_reader.hpp"

#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace simmpi::replay {

namespace ct = runtime::call_trace;

namespace {

// The file is opened for each chunk: a replay of 100,000 ranks cannot hold a file per rank.
struct File {
  std::FILE* f;
  explicit File(const std::string& path) : f(std::fopen(path.c_str(), "rb")) {}
  ~File() {
    if (f) std::fclose(f);
  }
};

}  // namespace

TraceReader::TraceReader(std::string directory, int rank, int ranks)
    : path_(directory + "/" + ct::rank_file_name(rank)), rank_(rank) {
  dctx_ = ZSTD_createDCtx();
  File f(path_);
  if (!f.f) fail(std::string("cannot open it: ") + std::strerror(errno));
  unsigned char h[ct::kHeaderBytes];
  if (std::fread(h, 1, sizeof h, f.f) != sizeof h) fail("truncated header (under 20 bytes)");
  if (std::memcmp(h, ct::kMagic, sizeof ct::kMagic) != 0)
    fail("not a simmpi call trace (no SIMTRACE magic)");
  const std::uint32_t version = ct::get_u32(h + 8);
  if (version < ct::kOldestVersion || version > ct::kVersion)
    fail("format version " + std::to_string(version) + ", this simmpi-replay reads versions " +
         std::to_string(ct::kOldestVersion) + " to " + std::to_string(ct::kVersion));
  version_ = version;
  kinds_ = ct::kKindsOfVersion[version - ct::kOldestVersion];
  if (static_cast<int>(ct::get_u32(h + 12)) != rank)
    fail("the file says it is rank " + std::to_string(ct::get_u32(h + 12)) + "'s");
  const auto recorded = static_cast<int>(ct::get_u32(h + 16));
  if (recorded != ranks)
    fail("recorded with " + std::to_string(recorded) + " ranks, replayed with " +
         std::to_string(ranks) + "; replay a trace with the rank count it was recorded with");
  offset_ = ct::kHeaderBytes;
}

TraceReader::~TraceReader() {
  ZSTD_freeDCtx(dctx_);
}

std::string TraceReader::where() const {
  std::string w = path_ + ": rank " + std::to_string(rank_);
  if (number_ == 0) return w;
  w += ", record " + std::to_string(number_);
  if (kind_name_) w += std::string(" (") + kind_name_ + ")";
  return w;
}

void TraceReader::fail(const std::string& what) const {
  throw TraceError(where() + ": " + what);
}

bool TraceReader::load_chunk() {
  File f(path_);
  if (!f.f || std::fseek(f.f, offset_, SEEK_SET) != 0) fail("cannot read it any more");
  unsigned char h[8];
  const std::size_t got = std::fread(h, 1, sizeof h, f.f);
  if (got == 0) return false;
  if (got != sizeof h) fail("truncated: the file ends inside a chunk header");
  const std::uint32_t raw = ct::get_u32(h), packed = ct::get_u32(h + 4);
  if (raw > (256u << 20) || packed > ZSTD_compressBound(raw))
    fail("corrupt chunk header (" + std::to_string(raw) + " bytes from " + std::to_string(packed) +
         ")");
  compressed_.resize(packed);
  if (std::fread(compressed_.data(), 1, packed, f.f) != packed)
    fail("truncated: the file ends inside a chunk");
  chunk_.resize(raw);
  const std::size_t n = ZSTD_decompressDCtx(dctx_, chunk_.data(), raw, compressed_.data(), packed);
  if (ZSTD_isError(n) || n != raw)
    fail(std::string("corrupt chunk: ") + (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "wrong size"));
  pos_ = 0;
  offset_ += static_cast<long>(sizeof h + packed);
  return true;
}

std::uint64_t TraceReader::varint() {
  auto* p = reinterpret_cast<const unsigned char*>(chunk_.data()) + pos_;
  auto* end = reinterpret_cast<const unsigned char*>(chunk_.data()) + chunk_.size();
  std::uint64_t u;
  if (!ct::get_varint(p, end, &u)) fail("corrupt: a field runs past its chunk");
  pos_ = static_cast<std::size_t>(p - reinterpret_cast<const unsigned char*>(chunk_.data()));
  return u;
}

bool TraceReader::next(Record& r) {
  if (pos_ >= chunk_.size() && !load_chunk())
    fail("truncated: the file ends without its End record (was the recording run stopped?)");
  ++number_;
  kind_name_ = nullptr;
  const std::uint64_t kind = varint();
  if (kind >= kinds_ && kind < static_cast<std::uint64_t>(ct::Kind::Count))
    fail("record kind " + std::to_string(kind) + " (" +
         ct::layout(static_cast<ct::Kind>(kind)).name + ") is not in format version " +
         std::to_string(version_) + ", which the file's header names (a corrupt file)");
  if (kind >= kinds_)
    fail("unknown record kind " + std::to_string(kind) + " (a newer simmpi, or a corrupt file)");
  const ct::Layout& l = ct::layout(static_cast<ct::Kind>(kind));
  r.kind = ct::collective_of(static_cast<ct::Kind>(kind));
  r.persistent = r.kind != static_cast<ct::Kind>(kind);
  r.number = number_;
  r.fields.clear();
  r.text.clear();
  kind_name_ = l.name;
  for (const char* c = l.fields; *c; ++c) {
    const std::int64_t v = ct::unzigzag(varint());
    if (*c == 's') {
      if (v < 0 || v > 4096) fail("corrupt: a string of " + std::to_string(v) + " bytes");
      for (std::int64_t i = 0; i < v; ++i)
        r.text.push_back(static_cast<char>(ct::unzigzag(varint())));
      continue;
    }
    r.fields.push_back(v);
    if (*c == 'a') {
      if (v < 0 || v > (1 << 24)) fail("corrupt: an array of " + std::to_string(v) + " elements");
      for (std::int64_t i = 0; i < v; ++i) r.fields.push_back(ct::unzigzag(varint()));
    }
  }
  return r.kind != ct::Kind::End;
}

}  // namespace simmpi::replay
