// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/call_trace_writer.hpp"

#include <sys/stat.h>
#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "runtime/core/error.hpp"

namespace simmpi::runtime {

namespace ct = call_trace;

CallTraceWriter::CallTraceWriter(const std::string& directory, const char* key, int ranks)
    : directory_(directory),
      pending_(static_cast<std::size_t>(ranks)),
      started_(static_cast<std::size_t>(ranks)) {
  if (::mkdir(directory.c_str(), 0777) != 0)
    throw ConfigError(strprintf(
        "%s = \"%s\": %s; a trace is never written over: remove it or choose another directory",
        key, directory.c_str(), errno == EEXIST ? "the directory exists" : std::strerror(errno)));
  const std::string meta = directory + "/" + ct::kMetaFileName;
  std::FILE* f = std::fopen(meta.c_str(), "w");
  if (!f)
    throw ConfigError(strprintf("%s = \"%s\": cannot write %s (%s)", key, directory.c_str(),
                                meta.c_str(), std::strerror(errno)));
  std::fprintf(f, "format simmpi call trace\nversion %u\nranks %d\n", ct::kVersion, ranks);
  std::fclose(f);
  cctx_ = ZSTD_createCCtx();
  // Level 1, the fastest: call traces compress well at any level. The checksum makes a damaged
  // chunk an error when read, never records of garbage.
  ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, 1);
  ZSTD_CCtx_setParameter(cctx_, ZSTD_c_checksumFlag, 1);
}

CallTraceWriter::~CallTraceWriter() {
  ZSTD_freeCCtx(cctx_);
}

void CallTraceWriter::begin(int rank, ct::Kind kind) {
  std::string& p = pending_[slot(rank)];
  if (p.size() >= ct::kChunkBytes) flush(rank);  // chunks hold whole records
  ct::put_varint(p, static_cast<std::uint64_t>(kind));
  ++records_;
}

void CallTraceWriter::text(int rank, std::string_view s) {
  std::string& p = pending_[slot(rank)];
  ct::put_int(p, static_cast<std::int64_t>(s.size()));
  for (char c : s) ct::put_int(p, static_cast<unsigned char>(c));
}

void CallTraceWriter::flush(int rank) {
  std::string& p = pending_[slot(rank)];
  std::string out;
  if (!started_[slot(rank)]) {
    out.append(ct::kMagic, sizeof ct::kMagic);
    ct::put_u32(out, ct::kVersion);
    ct::put_u32(out, static_cast<std::uint32_t>(rank));
    ct::put_u32(out, static_cast<std::uint32_t>(ranks()));
    started_[slot(rank)] = true;
  }
  if (!p.empty()) {
    compressed_.resize(ZSTD_compressBound(p.size()));
    const std::size_t n =
        ZSTD_compress2(cctx_, compressed_.data(), compressed_.size(), p.data(), p.size());
    SIMMPI_ASSERT(!ZSTD_isError(n), "zstd compresses a chunk of %zu bytes: %s", p.size(),
                  ZSTD_getErrorName(n));
    ct::put_u32(out, static_cast<std::uint32_t>(p.size()));
    ct::put_u32(out, static_cast<std::uint32_t>(n));
    out.append(compressed_.data(), n);
    p.clear();
  }
  if (!error_.empty()) return;
  const std::string path = directory_ + "/" + ct::rank_file_name(rank);
  // Opened for each chunk: a run of 100,000 ranks cannot hold a file open per rank.
  std::FILE* f = std::fopen(path.c_str(), "ab");
  bool ok = f && std::fwrite(out.data(), 1, out.size(), f) == out.size();
  if (f && std::fclose(f) != 0) ok = false;
  if (!ok) error_ = strprintf("cannot write %s (%s)", path.c_str(), std::strerror(errno));
  bytes_written_ += out.size();
}

bool CallTraceWriter::finish(std::string* error) {
  for (int r = 0; r < ranks(); ++r) {
    begin(r, ct::Kind::End);
    flush(r);
    std::string().swap(pending_[slot(r)]);
  }
  if (error && !error_.empty()) *error = error_;
  return error_.empty();
}

}  // namespace simmpi::runtime
